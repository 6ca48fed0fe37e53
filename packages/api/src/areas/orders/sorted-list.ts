import { type OrderStatus, ordersPageSize } from '@medlocker/core';
import type { AppDeps } from '../../context/deps.ts';
import type { In } from '../../context/method.ts';
import { decodeCursor, invalidToken } from '../../lists/paging.ts';
import { listSortedOrders, type OrderFilterQuery, sortValueFits, sortValueOf } from './list-repository.ts';
import type { StoredOrder } from './mapping-repository.ts';

type Filter = In<'orders/listOrderIds'>;
type Sort = Pick<In<'orders/listOrdersByBusiness'>, 'sortBy' | 'sortDirection' | 'nextToken'>;

/** A list's filters as the repository reads them: Expired is loaded orders whose window passed by `now`. */
export function orderFilterOf(input: Filter, now: number): OrderFilterQuery {
  const status = input.statusCode;
  return {
    businessId: input.businessId,
    filterText: input.filterText?.trim() || undefined,
    onlyCurrent: input.onlyCurrent,
    status: status === 'expired' || status === undefined ? undefined : (status as OrderStatus),
    expiredAt: status === 'expired' ? now : undefined,
  };
}

/**
 * One page of a sorted list (`limit + 1` rows read, so the caller knows whether there is another) and
 * its page key. A token from another sort, or forged, is a 400.
 */
export async function listSortedPage(
  deps: AppDeps,
  filter: OrderFilterQuery,
  sort: Sort & { sortBy: NonNullable<Sort['sortBy']> },
  limit = ordersPageSize + 1,
) {
  const { sortBy } = sort;
  const cursor = decodeCursor(sort.nextToken, 2);
  if (cursor && (!sortValueFits(sortBy, cursor[0]) || typeof cursor[1] !== 'string')) throw invalidToken();
  const rows = await listSortedOrders(deps.db, {
    ...filter,
    sortBy,
    direction: sort.sortDirection ?? 'descending',
    after: cursor as [string | number, string] | undefined,
    limit,
  });
  return { rows, keyOf: (row: StoredOrder) => [sortValueOf(row, sortBy), row.id] };
}
