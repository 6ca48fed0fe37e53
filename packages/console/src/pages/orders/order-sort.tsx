import { type Order, type OrderSortColumn, type OrderSortDirection, orderSortColumns } from '@medlocker/core';
import { choiceCodec } from '../../state/url-filter.ts';
import { Button } from '../../ui/Button.tsx';
import type { ListColumn } from '../../ui/ListPage.tsx';

export const sortCodec = choiceCodec<OrderSortColumn>(orderSortColumns);
export const directionCodec = choiceCodec<OrderSortDirection>(['ascending', 'descending']);

export type OrderSort = { by: OrderSortColumn | null; direction: OrderSortDirection };

const isSortColumn = (key: string): key is OrderSortColumn => (orderSortColumns as readonly string[]).includes(key);

/**
 * Makes the columns people sort by (created, expires, status, machine, patient) sortable: the header a
 * button (first press ascending, again descending), aria-sort on the sorted one. No sort chosen: the
 * list is newest first, as the server gives it.
 */
export function sortableColumns(
  columns: ListColumn<Order>[],
  sort: OrderSort,
  onSort: (sort: OrderSort) => void,
): ListColumn<Order>[] {
  return columns.map((column) => {
    const key = column.key;
    if (!isSortColumn(key)) return column;
    const current = sort.by === key ? sort.direction : 'none';
    const next: OrderSortDirection = current === 'ascending' ? 'descending' : 'ascending';
    return {
      ...column,
      sort: current,
      headerCell: (
        <Button variant="quiet" className="sort-button" onPress={() => onSort({ by: key, direction: next })}>
          {column.header}
          <span aria-hidden="true">{current === 'ascending' ? ' ▲' : current === 'descending' ? ' ▼' : ''}</span>
        </Button>
      ),
    };
  });
}
