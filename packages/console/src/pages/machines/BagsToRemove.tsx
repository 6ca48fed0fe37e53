import { formatDateTime } from '@medlocker/core';
import { useRef, useState } from 'react';
import { useRpcQuery } from '../../api/queries.ts';
import { machinePaths, orderPaths } from '../../paths.ts';
import { useAllowed } from '../../state/access.ts';
import { Button } from '../../ui/Button.tsx';
import { ConfirmAction } from '../../ui/Dialog.tsx';
import { Link } from '../../ui/Link.tsx';
import { QueryView } from '../../ui/QueryView.tsx';
import { BulkOutcome, type BulkSummary, runBulk } from '../orders/order-bulk-outcome.tsx';
import { t } from './i18n/index.ts';

/**
 * The bags someone has to take out of the lockers (bags.listBagsToRemove): those of cancelled orders
 * and of orders whose collection window passed, one list with their count; of one machine (its page),
 * or of the business's machines (the pharmacy dashboard). Order pushes make it stale
 * (state/invalidate.ts), so it follows cancellations, collections and removals live. On the dashboard,
 * once the bags are out, "Mark all removed" marks the expired orders shown removed (a cancelled order's
 * bag is the locker's to report).
 */
export function BagsToRemove({ businessId, machineId }: { businessId: string; machineId?: string }) {
  const query = useRpcQuery(['bags', 'listBagsToRemove', businessId, machineId ?? null], {
    businessId,
    ...(machineId ? { machineId } : {}),
  });
  const data = query.data;
  const titleId = `bags-to-remove-${machineId ?? businessId}`;
  // On a machine's page it shows only when there is something to do; the dashboard always shows it.
  if (machineId && (!data || data.total === 0) && !query.error) return null;
  return (
    <section aria-labelledby={titleId} className={machineId ? 'bags-to-remove' : 'fleet__section'}>
      <h2 id={titleId} className="section-title">
        {data ? t('machines.bags.titleCounted', { count: data.total }) : t('machines.bags.title')}
      </h2>
      {!machineId && (
        <MarkAllRemoved orderIds={data?.bags.filter((b) => b.reason === 'expired').map((b) => b.orderId) ?? []} />
      )}
      <QueryView query={query} loadingLabel={t('machines.bags.loading')}>
        {(data) =>
          data.total === 0 ? (
            <p className="empty">{t('machines.bags.none')}</p>
          ) : (
            <>
              <p>{t('machines.bags.lead')}</p>
              <ul className="glance__list" aria-label={t('machines.bags.title')}>
                {data.bags.map((b) => (
                  <li key={b.bagId} className="glance__item">
                    <Link href={orderPaths.order(businessId, b.orderId)}>{b.reference ?? b.barcode}</Link>
                    <span>
                      {b.reason === 'cancelled'
                        ? t('machines.bags.cancelled', { since: formatDateTime(b.since) })
                        : t('machines.bags.expired', { since: formatDateTime(b.since) })}
                    </span>
                    <span className="muted">
                      {machineId ? (
                        t('machines.bags.where', { slot: b.location ?? '—', barcode: b.barcode })
                      ) : (
                        <>
                          <Link href={machinePaths.machine(businessId, b.machineId)}>{b.machineName}</Link>
                          {t('machines.bags.afterMachine', { slot: b.location ?? '—', barcode: b.barcode })}
                        </>
                      )}
                    </span>
                  </li>
                ))}
                {data.total > data.bags.length && (
                  <li className="muted">{t('machines.bags.more', { count: data.total - data.bags.length })}</li>
                )}
              </ul>
            </>
          )
        }
      </QueryView>
    </section>
  );
}

/** "Mark all removed" with a confirmation, then what was done and any order refused. */
function MarkAllRemoved({ orderIds }: { orderIds: string[] }) {
  const [open, setOpen] = useState(false);
  const [outcome, setOutcome] = useState<BulkSummary>();
  const allowed = useAllowed([{ method: ['orders', 'bulkUpdate'] as const }]).length > 0;
  const summary = useRef<BulkSummary | undefined>(undefined);
  return (
    <>
      {outcome && <BulkOutcome summary={outcome} />}
      {allowed && orderIds.length > 0 && <Button onPress={() => setOpen(true)}>{t('machines.bags.markAll')}</Button>}
      {open && (
        <ConfirmAction
          title={t('machines.bags.markAllTitle', { count: orderIds.length })}
          cancelLabel={t('machines.bags.goBack')}
          confirmLabel={t('machines.bags.markAll')}
          tone="primary"
          action={async () => {
            summary.current = await runBulk(orderIds, 'markRemoved');
          }}
          onDone={() => {
            setOpen(false);
            setOutcome(summary.current);
          }}
          onCancel={() => setOpen(false)}
        >
          {t('machines.bags.markAllBody')}
        </ConfirmAction>
      )}
    </>
  );
}
