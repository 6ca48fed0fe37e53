import { formatDateTime } from '@medlocker/core';
import { rpc } from '../../api/client.ts';
import { useQuery } from '../../api/queries.ts';
import { orderPaths } from '../../paths.ts';
import { Link } from '../../ui/Link.tsx';
import { LoadError } from '../../ui/LoadError.tsx';
import { Loading } from '../../ui/Page.tsx';

/**
 * Orders whose collection window has passed while still in a locker: someone has to take them out.
 * The first page of listOrdersByBusiness' `expired` filter (25); a push about any order of the
 * business makes it stale (state/invalidate.ts), so it follows collections and removals live.
 */
export function ExpiredOrders({ businessId }: { businessId: string }) {
  const query = useQuery(
    (signal) => rpc('orders', 'listOrdersByBusiness', { businessId, statusCode: 'expired' }, { signal }),
    ['orders', 'listOrdersByBusiness', businessId, 'expired', 'dashboard'],
  );
  const orders = query.data?.orders ?? [];
  const more = query.data?.nextToken != null;

  return (
    <section aria-labelledby="glance-expired" className="fleet__section">
      <h2 id="glance-expired" className="section-title">
        Expired orders to remove{query.data ? ` (${orders.length}${more ? '+' : ''})` : ''}
      </h2>
      {query.error ? (
        <LoadError error={query.error} onRetry={query.reload} />
      ) : !query.data ? (
        <Loading label="Loading expired orders…" />
      ) : orders.length === 0 ? (
        <p className="empty">No expired orders to remove.</p>
      ) : (
        <ul className="glance__list" aria-label="Expired orders">
          {orders.map((o) => (
            <li key={o.id} className="glance__item">
              <Link href={orderPaths.order(o.businessId, o.id)}>{o.reference}</Link>
              <span>{o.patientName}</span>
              <span className="muted">
                {o.machineName ?? 'No machine'}
                {o.expiresAt !== null ? `, expired ${formatDateTime(o.expiresAt)}` : ''}
              </span>
            </li>
          ))}
        </ul>
      )}
      <p>
        <Link href={orderPaths.list(businessId)}>All orders</Link>
      </p>
    </section>
  );
}
