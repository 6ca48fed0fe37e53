import type { OrderSortColumn, OrderSortDirection, OrderStatusFilter } from '@medlocker/core';
import { keptAtom } from './kept.ts';

// SPEC §2: the orders list's filters are kept for the session (this tab).

/** Search text of the orders list (part of a barcode, reference or patient name). */
export const ordersSearchAtom = keptAtom('medlocker.orders.search', '');
/** One status (or Expired) to list; null lists all. */
export const ordersStatusAtom = keptAtom<OrderStatusFilter | null>('medlocker.orders.status', null);
/**
 * Only new and loaded orders (applies while no status is chosen). On by default (docs/decisions/orders.md):
 * the list a pharmacy works from is the bags still to be collected.
 */
export const ordersOnlyCurrentAtom = keptAtom('medlocker.orders.onlyCurrent', true);
/** The column the orders list is sorted by; null: newest first. */
export const ordersSortAtom = keptAtom<OrderSortColumn | null>('medlocker.orders.sort', null);
/** Which way (null: ascending). */
export const ordersSortDirectionAtom = keptAtom<OrderSortDirection | null>('medlocker.orders.sortDirection', null);
