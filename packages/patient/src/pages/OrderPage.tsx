import type { PatientOrderDetails, PatientOrderSummary, PatientSessionInfo } from '@medlocker/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, messageOf, onSessionEnded, rpc } from '../api.ts';
import { keepLanguageWith, patientLayer, showIn, t } from '../i18n/index.ts';
import { navigate } from '../router.ts';
import { rememberOrder, useSessionTimeout } from '../session.ts';
import { Loading, SomethingWentWrong } from '../ui.tsx';
import { DeclareExemption } from './DeclareExemption.tsx';
import { IdentityCheck } from './IdentityCheck.tsx';
import { NotFound } from './NotFound.tsx';
import { OrderView, type PaymentOutcome } from './OrderView.tsx';
import { SignedOut, SignOutButton } from './SignOut.tsx';

type State =
  | { kind: 'loading' }
  | { kind: 'identity'; notice?: string }
  | { kind: 'order'; details: PatientOrderDetails; outcome?: PaymentOutcome }
  | { kind: 'declare'; details: PatientOrderDetails }
  | { kind: 'signedOut' }
  | { kind: 'notFound' }
  | { kind: 'error'; message: string };

export const timedOutNotice = () => t('identity.timedOut');

/** Judopay's return: `?ReceiptId=…&Reference=…` on this order's address (read once, then taken off). */
function receiptInUrl(): string | null {
  const receiptId = new URLSearchParams(location.search).get('ReceiptId');
  return receiptId?.trim() ? receiptId.trim() : null;
}

/**
 * The order page's state: loads the order (confirming a Judopay receipt first when the address has
 * one), and goes back to the identity check when the session is missing, ends or times out.
 */
function useOrderPage(orderId: string) {
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [session, setSessionState] = useState<PatientSessionInfo | null>(null);
  const known = useRef(false);
  const receipt = useRef(receiptInUrl());
  const setSession = useCallback((info: PatientSessionInfo | null) => {
    known.current = info !== null;
    setSessionState(info);
  }, []);

  /** The identity check; saying the session timed out when there was one. */
  const askIdentity = useCallback(() => {
    keepLanguageWith(null);
    const notice = known.current ? timedOutNotice() : undefined;
    setSession(null);
    setState({ kind: 'identity', notice });
  }, [setSession]);

  const load = useCallback(
    async (verified: boolean) => {
      try {
        let outcome: PaymentOutcome | undefined;
        const pending = receipt.current;
        if (pending) {
          outcome = await completePayment(orderId, pending);
          receipt.current = null;
          history.replaceState(null, '', `/p/${encodeURIComponent(orderId)}`);
        }
        const [info, details] = await Promise.all([
          rpc('auth', 'patientSession'),
          rpc('patientOrders', 'get', { orderId }),
        ]);
        rememberOrder(orderId);
        // The patient's language (their choice, else the pharmacy's): the page shows it, and the
        // switch keeps a new choice on their record for the next messages.
        if (details.language !== patientLayer.locale()) await showIn(details.language);
        keepLanguageWith((language) => rpc('patientOrders', 'setLanguage', { orderId, language }));
        setSession(info);
        setState({ kind: 'order', details, outcome });
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) return askIdentity();
        // Another patient's order looks missing: this browser's session is someone else's, so ask.
        if (error instanceof ApiError && error.status === 404)
          return verified ? setState({ kind: 'notFound' }) : askIdentity();
        setState({ kind: 'error', message: messageOf(error) });
      }
    },
    [orderId, askIdentity, setSession],
  );

  useEffect(() => {
    void load(false);
  }, [load]);

  // Any call finding the session gone (timed out, ended elsewhere) brings the check back.
  useEffect(() => onSessionEnded(askIdentity), [askIdentity]);
  useSessionTimeout(session?.expires ?? null, askIdentity);
  return { state, setState, session, setSession, askIdentity, load };
}

/** The order once an exemption is declared: read again, since the PIN comes once nothing is left to pay. */
async function afterDeclaring(
  orderId: string,
  details: PatientOrderDetails,
  order: PatientOrderSummary,
): Promise<State> {
  try {
    return { kind: 'order', details: await rpc('patientOrders', 'get', { orderId }), outcome: { kind: 'declared' } };
  } catch (error) {
    return { kind: 'order', details: { ...details, order }, outcome: { kind: 'declared', warning: messageOf(error) } };
  }
}

/**
 * `/p/{orderId}`, the page a message's link opens: with a patient session for this order's patient, the
 * order; without one (or with another patient's), the identity check first. Back from Judopay's page
 * with a receipt, it has the server confirm the payment, then shows the outcome and takes the receipt
 * off the address (a reload then does not send it again).
 */
export function OrderPage({ orderId }: { orderId: string }) {
  const { state, setState, session, setSession, askIdentity, load } = useOrderPage(orderId);

  const signOut = session ? (
    <SignOutButton
      onSignedOut={() => {
        setSession(null);
        setState({ kind: 'signedOut' });
      }}
    />
  ) : undefined;

  switch (state.kind) {
    case 'loading':
      return <Loading title={t('order.title')} />;
    case 'identity':
      return (
        <IdentityCheck
          orderId={orderId}
          notice={state.notice}
          onVerified={(info) => {
            setSession(info);
            setState({ kind: 'loading' });
            void load(true);
          }}
          onNotFound={() => setState({ kind: 'notFound' })}
        />
      );
    case 'notFound':
      return <NotFound />;
    case 'signedOut':
      return <SignedOut onSignIn={askIdentity} />;
    case 'error':
      return <SomethingWentWrong message={state.message} onRetry={() => load(false)} />;
    case 'declare':
      return (
        <DeclareExemption
          details={state.details}
          headerAction={signOut}
          onCancel={() => setState({ kind: 'order', details: state.details })}
          onDeclared={(order) => void afterDeclaring(orderId, state.details, order).then(setState)}
        />
      );
    case 'order':
      return (
        <OrderView
          details={state.details}
          givenName={session?.givenName}
          outcome={state.outcome}
          headerAction={signOut}
          onDeclare={() => setState({ kind: 'declare', details: state.details })}
          onOrders={() => navigate('/p')}
        />
      );
  }
}

/** Has the server confirm a Judopay receipt with Judopay; the outcome, or why it could not. */
async function completePayment(orderId: string, receiptId: string): Promise<PaymentOutcome> {
  try {
    const done = await rpc('checkout', 'completeJudoOrderPayment', { orderId, receiptId });
    if (done.outcome === 'succeeded') return { kind: 'paid' };
    return { kind: done.outcome === 'declined' ? 'declined' : 'failed' };
  } catch (error) {
    // No session (timed out while paying): the check comes first, and the receipt waits for it.
    if (error instanceof ApiError && error.status === 401) throw error;
    return { kind: 'notConfirmed', message: messageOf(error) };
  }
}
