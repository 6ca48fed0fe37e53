import { useState } from 'react';
import { useParams } from 'react-router';
import { rpc } from '../../../api/client.ts';
import { usePagedQuery, useRpcQuery } from '../../../api/queries.ts';
import { orderPaths } from '../../../paths.ts';
import { useFlashNotice } from '../../../shell/flash.ts';
import { useLiveSubscription } from '../../../state/live.ts';
import { Banner } from '../../../ui/Banner.tsx';
import { Link } from '../../../ui/Link.tsx';
import { LoadError } from '../../../ui/LoadError.tsx';
import { Loading } from '../../../ui/Page.tsx';
import { Section } from '../../../ui/Section.tsx';
import { OrderStatusBadge } from '../OrderStatusBadge.tsx';
import { t } from './i18n/index.ts';
import { OrderActions } from './OrderActions.tsx';
import { OrderCheckout } from './OrderCheckout.tsx';
import { OrderSummary } from './OrderSummary.tsx';
import { OrderTimeline } from './OrderTimeline.tsx';
import { PinHoldBanner } from './PinHoldBanner.tsx';

/**
 * `/businesses/{businessId}/orders/{orderId}`: the order's details, the actions its state
 * allows, and its timeline. Live: the page holds the business's subscription, and a push about any of
 * its orders invalidates `['orders', ...]` (state/invalidate.ts), so a locker loading or collecting the
 * bag shows here without a reload.
 */
export function OrderDetails() {
  const { businessId = '', orderId = '' } = useParams();
  const notice = useFlashNotice();
  const query = useRpcQuery(['orders', 'get', orderId], { id: orderId });
  const events = usePagedQuery(
    async (nextToken) => {
      const page = await rpc('orders', 'listEvents', { orderId, nextToken: nextToken ?? undefined });
      return { items: page.events, nextToken: page.nextToken };
    },
    ['orders', 'listEvents', orderId],
  );
  const [message, setMessage] = useState<{ tone: 'success' | 'warning' | 'error'; text: string }>();
  useLiveSubscription(query.data ? { businessId: query.data.order.businessId } : null);

  if (!query.data) {
    return (
      <Section title={t('orderPage.details.title')}>
        {query.error ? <LoadError error={query.error} onRetry={query.reload} /> : <Loading />}
      </Section>
    );
  }
  const { order } = query.data;
  const creator = events.items.find((e) => e.code === 'ORDER_CREATED')?.data?.byName;

  return (
    <Section
      title={t('orderPage.details.titleOf', { reference: order.reference })}
      lead={<OrderStatusBadge order={order} />}
      actions={
        <>
          <OrderActions
            order={order}
            onDone={(text) => setMessage({ tone: 'success', text })}
            onRefused={(text) => setMessage({ tone: 'error', text })}
            onWarning={(text) => setMessage({ tone: 'warning', text })}
          />
          <Link href={orderPaths.labels(businessId, [order.id])} variant="button">
            {t('orderPage.details.printLabel')}
          </Link>
        </>
      }
    >
      {(message ?? notice) && <Banner tone={message?.tone ?? 'success'}>{message?.text ?? notice}</Banner>}
      <PinHoldBanner
        order={order}
        onReleased={(text) => {
          setMessage({ tone: 'success', text });
          query.reload();
          events.reload();
        }}
      />
      <OrderSummary order={order} creator={typeof creator === 'string' ? creator : undefined} />
      <OrderCheckout
        order={order}
        events={events.items}
        onSent={(text) => setMessage({ tone: 'success', text })}
        onRefused={(text) => setMessage({ tone: 'error', text })}
      />
      <h3>{t('orderPage.details.timeline')}</h3>
      <OrderTimeline events={events} machineName={order.machineName} patientName={order.patientName} />
      <p>
        <Link href={orderPaths.list(businessId)}>{t('orderPage.details.back')}</Link>
      </p>
    </Section>
  );
}
