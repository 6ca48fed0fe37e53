import type { Order, OrderStatusFilter } from '@medlocker/core';
import { useAtomValue } from 'jotai';
import { useRef, useState } from 'react';
import { useParams } from 'react-router';
import { messageOf, type RpcInput, rpc } from '../../api/client.ts';
import { orderPaths } from '../../paths.ts';
import { useFlashNotice } from '../../shell/flash.ts';
import { useLiveSubscription } from '../../state/live.ts';
import {
  ordersOnlyCurrentAtom,
  ordersSearchAtom,
  ordersSortAtom,
  ordersSortDirectionAtom,
  ordersStatusAtom,
} from '../../state/orders.ts';
import { type RowSelection, useRowSelection } from '../../state/row-selection.ts';
import { choiceCodec, onByDefault, useUrlState } from '../../state/url-filter.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { Checkbox } from '../../ui/Checkbox.tsx';
import { downloadCsv } from '../../ui/download.ts';
import { ListPage, linkAction } from '../../ui/ListPage.tsx';
import { rpcListQuery } from '../../ui/rpc-list-query.ts';
import { Select } from '../../ui/Select.tsx';
import { Switch } from '../../ui/Switch.tsx';
import { t } from './i18n/index.ts';
import { BulkOrderBar, BulkOutcome, type BulkSummary } from './order-bulk.tsx';
import { orderColumns, selectColumn } from './order-columns.tsx';
import { orderStatusLabel } from './order-format.ts';
import { printLabelsAction } from './order-labels-action.tsx';
import { directionCodec, type OrderSort, sortableColumns, sortCodec } from './order-sort.tsx';

const statuses = [
  'new',
  'loaded',
  'expired',
  'collected',
  'removed',
  'cancelled',
] as const satisfies readonly OrderStatusFilter[];
const statusCodec = choiceCodec<OrderStatusFilter>(statuses);
const statusOptions = () => [
  { id: 'all', label: t('orders.list.allStatuses') },
  ...statuses.map((status) => ({ id: status, label: orderStatusLabel(status) })),
];

/**
 * `/businesses/{businessId}/orders`: search (barcode, reference or patient name), a status
 * (`?status=`, Expired included), Only current (`?current=false` to see finished orders too; it
 * applies while no status is chosen), sorted by a column header (`?sort=&dir=`), paged as it scrolls.
 * Rows can be chosen (each row's box, Shift for a range, all loaded, or all matching the filters) to print
 * their bag labels on one sheet or roll or act on them together (order-bulk.tsx); Export CSV saves
 * the filtered list in its sort. A locker event that changes an order of the business reaches the list
 * live: the push invalidates every `['orders', ...]` answer.
 */
export function OrderList() {
  const { businessId = '' } = useParams();
  const notice = useFlashNotice();
  useLiveSubscription(businessId ? { businessId } : null);
  const f = useOrderFilters(businessId);
  const { status, setStatus, onlyCurrent, setOnlyCurrent, current, sort, setSort, filter, sorted } = f;
  const [outcome, setOutcome] = useState<BulkSummary | string | null>(null);

  const selection = useRowSelection();
  // The rows loaded so far, as shown: "Select all on this page" chooses these, Shift a range of them.
  const shown = useRef<string[]>([]);
  const exportCsv = () => exportOrdersCsv({ ...filter, ...sorted }, setOutcome);
  const columns = [
    selectColumn(selection, () => shown.current),
    ...sortableColumns(
      orderColumns(businessId, [
        'reference',
        'patient',
        'barcode',
        'machine',
        'status',
        'payment',
        'created',
        'expires',
      ]),
      sort,
      setSort,
    ),
  ];

  return (
    <ListPage
      title={t('orders.list.title')}
      frame="section"
      actions={[
        printLabelsAction(businessId, selection.ids),
        {
          key: 'export',
          method: ['orders', 'exportOrders'],
          element: <Button onPress={exportCsv}>{t('orders.list.exportCsv')}</Button>,
        },
        linkAction(t('orders.list.import'), orderPaths.import(businessId), ['orders', 'create'], 'button'),
        linkAction(t('orders.list.add'), orderPaths.add(businessId), ['orders', 'create']),
      ]}
      banner={
        <>
          {notice && <Banner tone="success">{notice}</Banner>}
          {outcome && <BulkOutcome summary={outcome} />}
          <BulkOrderBar
            selection={selection}
            selectMatching={async () => (await rpc('orders', 'listOrderIds', filter)).ids}
            onOutcome={setOutcome}
          />
        </>
      }
      search={{ atom: ordersSearchAtom, placeholder: t('orders.list.search') }}
      filters={orderFilters(f, selection, shown)}
      clearFilters={() => {
        setStatus(null);
        setOnlyCurrent(true);
      }}
      filtered={status !== null || !onlyCurrent}
      query={rpcListQuery(
        ['orders', 'listOrdersByBusiness', businessId, status, current, sort.by, sort.direction],
        'orders',
        (filterText, nextToken) => ({ ...filter, ...sorted, filterText, nextToken }),
      )}
      items={(loaded: Order[]) => {
        shown.current = loaded.map((o) => o.id);
        return loaded;
      }}
      label={t('orders.list.title')}
      columns={columns}
      emptyText={t('orders.list.empty')}
    />
  );
}

/** The list's filters and sort, each kept in the URL: what the list, a selection by filter and the export read. */
function useOrderFilters(businessId: string) {
  const [status, setStatus] = useUrlState('status', ordersStatusAtom, statusCodec);
  const [onlyCurrent, setOnlyCurrent] = useUrlState('current', ordersOnlyCurrentAtom, onByDefault);
  const [sortBy, setSortBy] = useUrlState('sort', ordersSortAtom, sortCodec);
  const [direction, setDirection] = useUrlState('dir', ordersSortDirectionAtom, directionCodec);
  // A chosen status says exactly which orders to list; Only current would only contradict a final one.
  const current = status === null && onlyCurrent;
  const sort: OrderSort = { by: sortBy, direction: direction ?? 'ascending' };
  const search = useAtomValue(ordersSearchAtom).trim() || undefined;
  return {
    status,
    setStatus,
    onlyCurrent,
    setOnlyCurrent,
    current,
    sort,
    setSort: (next: OrderSort) => {
      setSortBy(next.by);
      setDirection(next.direction === 'ascending' ? null : next.direction);
    },
    filter: { businessId, filterText: search, onlyCurrent: current, statusCode: status ?? undefined },
    sorted: sortBy ? { sortBy, sortDirection: sort.direction } : {},
  };
}

/**
 * The status, Only current and "Select all on this page" (`shown`: the rows loaded, read when the box is
 * drawn and when it is pressed: the list fills it while rendering, after these filters).
 */
function orderFilters(
  { status, setStatus, current, setOnlyCurrent }: ReturnType<typeof useOrderFilters>,
  selection: RowSelection,
  shown: { readonly current: string[] },
) {
  return (
    <>
      <Select
        label={t('orders.list.status')}
        options={statusOptions()}
        selectedKey={status ?? 'all'}
        onSelectionChange={(key) => setStatus(key === 'all' || key === null ? null : statusCodec.parse(String(key)))}
      />
      <Switch isSelected={current} isDisabled={status !== null} onChange={setOnlyCurrent}>
        {t('orders.list.onlyCurrent')}
      </Switch>
      <Checkbox isSelected={selection.hasAll(shown.current)} onChange={(on) => selection.set(shown.current, on)}>
        {t('orders.list.selectPage')}
      </Checkbox>
    </>
  );
}

/** Saves the filtered list, in its sort, as CSV (the server's file: core's columns); a refusal in words. */
async function exportOrdersCsv(input: RpcInput<'orders', 'exportOrders'>, onError: (message: string) => void) {
  try {
    const { csv } = await rpc('orders', 'exportOrders', input);
    downloadCsv(`orders-${new Date().toISOString().slice(0, 10)}.csv`, csv);
  } catch (e) {
    onError(messageOf(e));
  }
}
