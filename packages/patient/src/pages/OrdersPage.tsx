import type { PatientOrderSummary, PatientSessionInfo } from '@medlocker/core';
import { useCallback, useEffect, useState } from 'react';
import { ApiError, messageOf, onSessionEnded, rpc } from '../api.ts';
import { formatMoment, paymentOf, statusOf } from '../format.ts';
import { t } from '../i18n/index.ts';
import { navigate } from '../router.ts';
import { lastOrder, rememberOrder, useSessionTimeout } from '../session.ts';
import { Loading, Page, SomethingWentWrong } from '../ui.tsx';
import { Mobiles } from './Mobiles.tsx';
import { SignedOut, SignOutButton } from './SignOut.tsx';

type State =
  | { kind: 'loading' }
  | { kind: 'list'; session: PatientSessionInfo; orders: PatientOrderSummary[] }
  | { kind: 'noSession' }
  | { kind: 'signedOut' }
  | { kind: 'error'; message: string };

/**
 * `/p`: the signed-in patient's orders, live ones first. A session proves identity for one order's
 * link, so without one (or once it times out) the patient goes back to the check of the order they
 * last opened here, or is told to open the link in their message.
 */
export function OrdersPage() {
  const [state, setState] = useState<State>({ kind: 'loading' });

  const backToCheck = useCallback(() => {
    const orderId = lastOrder();
    if (orderId) navigate(`/p/${encodeURIComponent(orderId)}`, { replace: true });
    else setState({ kind: 'noSession' });
  }, []);

  const load = useCallback(async () => {
    try {
      const [session, list] = await Promise.all([rpc('auth', 'patientSession'), rpc('patientOrders', 'list')]);
      setState({ kind: 'list', session, orders: list.orders });
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return backToCheck();
      setState({ kind: 'error', message: messageOf(error) });
    }
  }, [backToCheck]);

  useEffect(() => {
    void load();
  }, [load]);
  useSessionTimeout(state.kind === 'list' ? state.session.expires : null, backToCheck);
  // A call finding the session gone (the mobiles' too) goes back to the check.
  useEffect(() => onSessionEnded(backToCheck), [backToCheck]);

  switch (state.kind) {
    case 'loading':
      return <Loading title={t('orders.title')} />;
    case 'signedOut':
      return <SignedOut />;
    case 'noSession':
      return (
        <Page title={t('orders.title')}>
          <h1>{t('orders.title')}</h1>
          <p>{t('orders.openLink')}</p>
        </Page>
      );
    case 'error':
      return <SomethingWentWrong message={state.message} onRetry={load} />;
    case 'list': {
      const live = state.orders.filter((o) => o.live && !o.expired);
      const past = state.orders.filter((o) => !(o.live && !o.expired));
      return (
        <Page
          title={t('orders.title')}
          headerAction={<SignOutButton onSignedOut={() => setState({ kind: 'signedOut' })} />}
        >
          <p className="lead">{t('order.hello', { name: state.session.givenName })}</p>
          <h1>{t('orders.title')}</h1>
          <h2>{t('orders.toCollect')}</h2>
          {live.length === 0 ? <p>{t('orders.noneToCollect')}</p> : <OrderList orders={live} />}
          <h2>{t('orders.past')}</h2>
          {past.length === 0 ? <p>{t('orders.nonePast')}</p> : <OrderList orders={past} />}
          <Mobiles />
        </Page>
      );
    }
  }
}

function OrderList({ orders }: { orders: PatientOrderSummary[] }) {
  return (
    <ul className="order-list">
      {orders.map((order) => {
        const status = statusOf(order);
        const payment = paymentOf(order);
        const href = `/p/${encodeURIComponent(order.id)}`;
        return (
          <li key={order.id}>
            <a
              href={href}
              onClick={(event) => {
                event.preventDefault();
                rememberOrder(order.id);
                navigate(href);
              }}
            >
              {t('orders.link', { business: order.businessName, reference: order.reference })}
            </a>
            <br />
            <span className={`status status--${status.tone}`}>
              {/* "Collected 8:52am", not "Collected · Collected 8:52am" */}
              {order.collected !== null && order.status === 'collected'
                ? t('orders.collectedAt', { when: formatMoment(order.collected) })
                : status.text}
            </span>
            {order.live && !order.expired && order.expiresAt !== null && (
              <span> · {t('orders.collectBy', { when: formatMoment(order.expiresAt) })}</span>
            )}
            {order.collected !== null && order.status !== 'collected' && (
              <span> · {t('orders.collectedAt', { when: formatMoment(order.collected) })}</span>
            )}
            {payment && <span className="hint">{payment}</span>}
          </li>
        );
      })}
    </ul>
  );
}
