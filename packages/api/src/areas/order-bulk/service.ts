import {
  AppError,
  type BulkOrderAction,
  type BulkOrderOutcome,
  bulkOrdersMax,
  ordersCsv,
  ordersExportMax,
  validationMessages,
} from '@medlocker/core';
import { audit } from '../../audit/audit.ts';
import type { StaffActor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import type { Service } from '../../context/method.ts';
import { holdPins, releasePins } from '../evidence/index.ts';
import {
  cancel,
  listOrderIdsOf,
  listOrders,
  listSortedPage,
  markRemoved,
  orderFilterOf,
  toOrder,
} from '../orders/index.ts';
import { resendOrderReadyMessage } from '../patient-orders/index.ts';
import { findReferences } from './repository.ts';

/*
 * Many orders at once (docs/decisions/orders.md, Bulk actions). Each order goes through its single
 * action's service, so each is one transaction with its own event and audit entry, exactly as if staff
 * had pressed the button on that order; one order refused leaves the others done and itself untouched.
 */

const needsReason: ReadonlySet<BulkOrderAction> = new Set(['cancel', 'holdPin', 'releasePin']);

/** One order's single action. */
async function actOn(deps: AppDeps, actor: StaffActor, id: string, action: BulkOrderAction, reason: string) {
  switch (action) {
    case 'markRemoved':
      return markRemoved(deps, actor, { id });
    case 'cancel':
      return cancel(deps, actor, { id, reason });
    case 'resendReadyMessage':
      return resendOrderReadyMessage(deps, actor, { orderId: id });
    case 'holdPin':
      return holdPins(deps, actor, { orderIds: [id], reason });
    case 'releasePin':
      return releasePins(deps, actor, { orderIds: [id], reason });
  }
}

export const bulkUpdate: Service<'orders/bulkUpdate'> = async (deps, actor, input) => {
  const reason = input.reason ?? '';
  if (needsReason.has(input.action) && reason === '') {
    throw new AppError('VALIDATION', 'A reason is required', [
      { path: 'reason', id: 'REQUIRED', message: validationMessages.REQUIRED },
    ]);
  }
  const ids = [...new Set(input.ids)];
  const references = await findReferences(deps.db, ids);
  const outcomes: BulkOrderOutcome[] = [];
  // One after the other: each order's transaction commits (or is refused) before the next starts.
  for (const id of ids) {
    const reference = references.get(id) ?? null;
    try {
      await actOn(deps, actor, id, input.action, reason);
      outcomes.push({ id, reference, ok: true });
    } catch (error) {
      if (!(error instanceof AppError)) {
        deps.logger.error('bulk order action failed', { action: input.action, orderId: id, error: String(error) });
      }
      const { code, message } =
        error instanceof AppError ? error : { code: 'INTERNAL', message: 'Something went wrong: try this order again' };
      outcomes.push({ id, reference, ok: false, code, message });
    }
  }
  return { outcomes };
};

export const listOrderIds: Service<'orders/listOrderIds'> = async (deps, _actor, input) => {
  const ids = await listOrderIdsOf(deps.db, orderFilterOf(input, deps.now()), bulkOrdersMax + 1);
  if (ids.length > bulkOrdersMax) {
    throw new AppError(
      'VALIDATION',
      `More than ${bulkOrdersMax} orders match: narrow the filters to choose at most ${bulkOrdersMax} at once`,
    );
  }
  return { ids };
};

/** The orders a list shows, in its order, as CSV; audited as one `order.export` entry with the filters. */
export const exportOrders: Service<'orders/exportOrders'> = async (deps, actor, input) => {
  const now = deps.now();
  const filter = orderFilterOf(input, now);
  const limit = ordersExportMax + 1;
  const rows =
    input.sortBy === undefined
      ? await listOrders(deps.db, { ...filter, limit })
      : (await listSortedPage(deps, filter, { ...input, sortBy: input.sortBy }, limit)).rows;
  if (rows.length > ordersExportMax) {
    throw new AppError(
      'VALIDATION',
      `More than ${ordersExportMax.toLocaleString('en-GB')} orders match: narrow the filters to export them`,
    );
  }
  await audit(deps.db, deps, actor, {
    action: 'order.export',
    entityType: 'order',
    businessId: input.businessId,
    details: {
      orders: rows.length,
      filterText: filter.filterText ?? null,
      statusCode: input.statusCode ?? null,
      onlyCurrent: input.onlyCurrent ?? false,
    },
  });
  return { csv: ordersCsv(rows.map(toOrder), now), orders: rows.length };
};
