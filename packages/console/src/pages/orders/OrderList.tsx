import type { Order, OrderStatusFilter } from '@medlocker/core';
import { useRef } from 'react';
import { useParams } from 'react-router';
import { rpc } from '../../api/client.ts';
import { orderPaths } from '../../paths.ts';
import { useFlashNotice } from '../../shell/flash.ts';
import { useLiveSubscription } from '../../state/live.ts';
import { ordersOnlyCurrentAtom, ordersSearchAtom, ordersStatusAtom } from '../../state/orders.ts';
import { useRowSelection } from '../../state/row-selection.ts';
import { choiceCodec, onByDefault, useUrlState } from '../../state/url-filter.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Checkbox } from '../../ui/Checkbox.tsx';
import { ListPage, linkAction } from '../../ui/ListPage.tsx';
import { Select } from '../../ui/Select.tsx';
import { Switch } from '../../ui/Switch.tsx';
import { orderColumns, selectColumn } from './order-columns.tsx';
import { orderStatusLabels } from './order-format.ts';
import { printLabelsAction } from './order-labels-action.tsx';

const statuses = [
  'new',
  'loaded',
  'expired',
  'collected',
  'removed',
  'cancelled',
] as const satisfies readonly OrderStatusFilter[];
const statusCodec = choiceCodec<OrderStatusFilter>(statuses);
const statusOptions = [
  { id: 'all', label: 'All' },
  ...statuses.map((status) => ({ id: status, label: orderStatusLabels[status] })),
];

/**
 * `/businesses/{businessId}/orders`: search (barcode, reference or patient name), a status
 * (`?status=`, Expired included), Only current (`?current=false` to see finished orders too; it
 * applies while no status is chosen), paged as it scrolls. Rows can be chosen (each row's box, or all
 * loaded) to print their bag labels on one sheet or roll. A locker event that changes an order of the
 * business reaches the list live: the push invalidates every `['orders', ...]` answer.
 */
export function OrderList() {
  const { businessId = '' } = useParams();
  const notice = useFlashNotice();
  const [status, setStatus] = useUrlState('status', ordersStatusAtom, statusCodec);
  const [onlyCurrent, setOnlyCurrent] = useUrlState('current', ordersOnlyCurrentAtom, onByDefault);
  useLiveSubscription(businessId ? { businessId } : null);
  // A chosen status says exactly which orders to list; Only current would only contradict a final one.
  const current = status === null && onlyCurrent;

  const selection = useRowSelection();
  // The rows loaded so far: "Select all on this page" chooses these.
  const shown = useRef<string[]>([]);
  const columns = [
    selectColumn(selection),
    ...orderColumns(businessId, [
      'reference',
      'patient',
      'barcode',
      'machine',
      'status',
      'payment',
      'created',
      'expires',
    ]),
  ];

  return (
    <ListPage
      title="Orders"
      frame="section"
      actions={[
        printLabelsAction(businessId, selection.ids),
        linkAction('Add order', orderPaths.add(businessId), ['orders', 'create']),
      ]}
      banner={notice && <Banner tone="success">{notice}</Banner>}
      search={{ atom: ordersSearchAtom, placeholder: 'Barcode, reference or patient name' }}
      filters={
        <>
          <Select
            label="Status"
            options={statusOptions}
            selectedKey={status ?? 'all'}
            onSelectionChange={(key) =>
              setStatus(key === 'all' || key === null ? null : statusCodec.parse(String(key)))
            }
          />
          <Switch isSelected={current} isDisabled={status !== null} onChange={setOnlyCurrent}>
            Only current
          </Switch>
          <Checkbox isSelected={selection.hasAll(shown.current)} onChange={(on) => selection.set(shown.current, on)}>
            Select all on this page
          </Checkbox>
        </>
      }
      clearFilters={() => {
        setStatus(null);
        setOnlyCurrent(true);
      }}
      filtered={status !== null || !onlyCurrent}
      query={{
        key: ['orders', 'listOrdersByBusiness', businessId, status, current],
        load: async (filterText, nextToken) => {
          const input = { businessId, filterText, nextToken, onlyCurrent: current, statusCode: status ?? undefined };
          const page = await rpc('orders', 'listOrdersByBusiness', input);
          return { items: page.orders, nextToken: page.nextToken };
        },
      }}
      items={(loaded: Order[]) => {
        shown.current = loaded.map((o) => o.id);
        return loaded;
      }}
      label="Orders"
      columns={columns}
      emptyText="No orders found."
    />
  );
}
