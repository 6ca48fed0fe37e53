import { ListPage } from '../../ui/ListPage.tsx';
import { rpcListQuery } from '../../ui/rpc-list-query.ts';
import { orderColumns } from '../orders/order-columns.tsx';
import { t } from './i18n/index.ts';

/**
 * The patient page's orders (orders/listOrdersByPatient, newest first), each linking to its order
 * page. A live push about an order of the business reloads it with every other `['orders', ...]` answer.
 */
export function PatientOrders({ businessId, patientId }: { businessId: string; patientId: string }) {
  const columns = orderColumns(businessId, ['reference', 'barcode', 'machine', 'status', 'created']);
  return (
    <ListPage
      title={t('patients.orders.title')}
      frame="part"
      reload={false}
      query={rpcListQuery(['orders', 'listOrdersByPatient', patientId], 'orders', (_search, nextToken) => ({
        patientId,
        nextToken: nextToken ?? undefined,
      }))}
      label={t('patients.orders.label')}
      columns={columns}
      emptyText={t('patients.orders.empty')}
    />
  );
}
