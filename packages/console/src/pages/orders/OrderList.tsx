import type { OrderStatusFilter } from '@medlocker/core';
import { useParams } from 'react-router';
import { rpc } from '../../api/client.ts';
import { orderPaths } from '../../paths.ts';
import { useFlashNotice } from '../../shell/flash.ts';
import { useLiveSubscription } from '../../state/live.ts';
import { ordersOnlyCurrentAtom, ordersSearchAtom, ordersStatusAtom } from '../../state/orders.ts';
import { choiceCodec, onByDefault, useUrlState } from '../../state/url-filter.ts';
import { Banner } from '../../ui/Banner.tsx';
import { ListPage, linkAction } from '../../ui/ListPage.tsx';
import { Select } from '../../ui/Select.tsx';
import { Switch } from '../../ui/Switch.tsx';
import { orderColumns } from './order-columns.tsx';
import { orderStatusLabels } from './order-format.ts';

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
 * applies while no status is chosen), paged as it scrolls. A locker event that changes an order of the
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

  const columns = orderColumns(businessId, [
    'reference',
    'patient',
    'barcode',
    'machine',
    'status',
    'payment',
    'created',
    'expires',
  ]);

  return (
    <ListPage
      title="Orders"
      frame="section"
      actions={[linkAction('Add order', orderPaths.add(businessId), ['orders', 'create'])]}
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
      label="Orders"
      columns={columns}
      emptyText="No orders found."
    />
  );
}
