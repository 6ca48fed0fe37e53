import { formatDate, formatTime, type Order } from '@medlocker/core';
import { orderPaths } from '../../paths.ts';
import type { RowSelection } from '../../state/row-selection.ts';
import { Checkbox } from '../../ui/Checkbox.tsx';
import { Link } from '../../ui/Link.tsx';
import type { ListColumn } from '../../ui/ListPage.tsx';
import { t } from './i18n/index.ts';
import { OrderStatusBadge } from './OrderStatusBadge.tsx';
import { machineOf, paymentStatusLabel } from './order-format.ts';

type Column = 'reference' | 'patient' | 'barcode' | 'machine' | 'status' | 'payment' | 'created' | 'expires';

/** DD-MM-YYYY HH:mm: a list's dates to the minute, so they fit beside the rest at 1366 px (the order page has the seconds). */
const toTheMinute = (at: number) => `${formatDate(at)} ${formatTime(at, { seconds: false })}`;

/**
 * Every column an order list may show; the reference opens the order. Their least widths add up to
 * what a 1366 px laptop leaves beside the menu (docs/decisions/console.md, Tables never widen the page).
 */
const columnsOf = (businessId: string): Record<Column, ListColumn<Order>> => ({
  reference: {
    key: 'reference',
    header: t('orders.column.reference'),
    width: '6rem',
    render: (o) => <Link href={orderPaths.order(businessId, o.id)}>{o.reference}</Link>,
  },
  patient: {
    key: 'patient',
    header: t('orders.column.patient'),
    width: 'minmax(6rem, 1.5fr)',
    render: (o) => o.patientName,
  },
  barcode: { key: 'barcode', header: t('orders.column.barcode'), width: 'minmax(8rem, 1fr)', render: (o) => o.barcode },
  machine: { key: 'machine', header: t('orders.column.machine'), width: 'minmax(5.5rem, 1fr)', render: machineOf },
  status: {
    key: 'status',
    header: t('orders.column.status'),
    // "Cancelled", the widest badge, whole at the badge's size and the cell's padding.
    width: '7rem',
    render: (o) => <OrderStatusBadge order={o} />,
  },
  payment: {
    key: 'payment',
    header: t('orders.column.payment'),
    width: '6.5rem',
    render: (o) => paymentStatusLabel(o.paymentStatus),
  },
  created: { key: 'created', header: t('orders.column.created'), width: '9rem', render: (o) => toTheMinute(o.created) },
  expires: {
    key: 'expires',
    header: t('orders.column.expires'),
    width: '9rem',
    render: (o) => (o.expiresAt === null ? t('orders.noValue') : toTheMinute(o.expiresAt)),
  },
});

/** The columns an order list shows, in this order (the business's orders, or a patient's). */
export const orderColumns = (businessId: string, shown: Column[]): ListColumn<Order>[] => {
  const all = columnsOf(businessId);
  return shown.map((key) => all[key]);
};

/**
 * A box per row choosing the order (state/row-selection.ts): its labels print, and bulk actions act,
 * with the others chosen. Shift with a box chooses the rows from the last box toggled (`order`: the rows
 * as shown).
 */
export const selectColumn = (selection: RowSelection, order: () => readonly string[]): ListColumn<Order> => ({
  key: 'select',
  header: t('orders.column.select'),
  width: '4rem',
  render: (o) => (
    <span onPointerDownCapture={selection.noteShift} onKeyDownCapture={selection.noteShift}>
      <Checkbox isSelected={selection.has(o.id)} onChange={(on) => selection.toggle(o.id, on, order())}>
        <span className="visually-hidden">{t('orders.column.selectOrder', { reference: o.reference })}</span>
      </Checkbox>
    </span>
  ),
});
