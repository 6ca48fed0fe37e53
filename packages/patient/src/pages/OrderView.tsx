import type { PatientOrderDetails } from '@medlocker/core';
import { type ReactNode, useState } from 'react';
import { messageOf, rpc } from '../api.ts';
import { formatMoment, formatPence, paymentOf, statusOf } from '../format.ts';
import { type ErrorItem, ErrorSummary, Page } from '../ui.tsx';

/** What happened on the way back to this page: a card payment's outcome, or a declaration made. */
export type PaymentOutcome =
  | { kind: 'paid' }
  | { kind: 'declined' }
  | { kind: 'failed' }
  | { kind: 'notConfirmed'; message: string }
  | { kind: 'declared'; warning?: string };

/**
 * One order, for its patient: where it stands in words, the PIN (large, grouped `1234 5678`, copyable)
 * only when the server gives it, the locker, slot and pharmacy, when to collect by (London time) and
 * what was paid or declared. A charged, unpaid order offers Pay by card and Declare an exemption.
 * Collected, expired, removed and cancelled orders show their history and never a PIN.
 */
export function OrderView(props: {
  details: PatientOrderDetails;
  givenName?: string;
  outcome?: PaymentOutcome;
  headerAction?: ReactNode;
  onDeclare: () => void;
  onOrders: () => void;
}) {
  const { order, pin, location, pharmacy, cardPayments } = props.details;
  const status = statusOf(order);
  const owes = order.paymentRequired && order.amountDue > 0 && order.live && !order.expired;
  const payment = paymentOf(order);
  return (
    <Page title="Your order" headerAction={props.headerAction}>
      {props.outcome && <Outcome outcome={props.outcome} />}
      {props.givenName && <p className="lead">Hello {props.givenName}</p>}
      <h1>Your order from {order.businessName}</h1>
      <p>
        <span className={`status status--${status.tone}`}>{status.text}</span>
      </p>
      <p>{sentenceOf(props.details)}</p>

      {pin && <Pin pin={pin} />}

      {owes && (
        <Pay
          orderId={order.id}
          amount={order.amountDue}
          cardPayments={cardPayments}
          retry={props.outcome?.kind === 'declined' || props.outcome?.kind === 'failed'}
          onDeclare={props.onDeclare}
        />
      )}

      <h2>Order details</h2>
      <dl className="summary-list">
        <Row term="Order reference">{order.reference}</Row>
        {order.machineName && <Row term="Locker">{order.machineName}</Row>}
        {location && order.live && <Row term="Slot">{location}</Row>}
        <Row term="Pharmacy">
          {pharmacy.name}
          {pharmacy.address && (
            <>
              <br />
              {[
                pharmacy.address.line1,
                pharmacy.address.line2,
                pharmacy.address.line3,
                pharmacy.address.postTown,
                pharmacy.address.postcode,
              ]
                .filter(Boolean)
                .join(', ')}
            </>
          )}
        </Row>
        {order.expiresAt !== null && order.live && (
          <Row term={order.expired ? 'Expired' : 'Collect by'}>{formatMoment(order.expiresAt)}</Row>
        )}
        {payment && <Row term="Payment">{payment}</Row>}
        {order.collected !== null && <Row term="Collected">{formatMoment(order.collected)}</Row>}
        {order.cancelled !== null && <Row term="Cancelled">{formatMoment(order.cancelled)}</Row>}
        <Row term="Ordered">{formatMoment(order.created)}</Row>
      </dl>

      {/*
       * Receipt: the "Email me a receipt" button (checkout/sendReceipt) goes here, for a paid order.
       * Another helper builds that method and this button; nothing of it is on this page yet.
       */}

      <p>
        <a
          href="/p"
          onClick={(event) => {
            event.preventDefault();
            props.onOrders();
          }}
        >
          See all your orders
        </a>
      </p>
    </Page>
  );
}

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** One sentence on what to do (or what happened), by the order's state. */
function sentenceOf({ order, pin }: PatientOrderDetails): string {
  if (order.status === 'cancelled') return 'The pharmacy cancelled this order. Contact them if you have questions.';
  if (order.status === 'collected') return 'This order has been collected.';
  if (order.status === 'removed') return 'The pharmacy took this order out of the locker. Contact them to collect it.';
  if (order.expired) return 'This order was not collected in time. Contact your pharmacy to arrange collection.';
  if (order.status === 'new')
    return 'Your pharmacy is preparing this order. We will send you a message when it is in the locker.';
  if (pin) return 'Enter this PIN at the locker to collect your order.';
  if (order.paymentRequired && order.amountDue > 0) {
    return 'Once it is paid, or an exemption is declared, we will show you the PIN that opens the locker.';
  }
  return 'Your order is in the locker.';
}

function Outcome({ outcome }: { outcome: PaymentOutcome }) {
  switch (outcome.kind) {
    case 'paid':
      return (
        <div className="notice notice--ok" role="status">
          <p>Payment received. Thank you.</p>
        </div>
      );
    case 'declared':
      return (
        <div className="notice notice--ok" role="status">
          <p>Your exemption has been declared. Thank you.</p>
          {outcome.warning && <p>{outcome.warning}</p>}
        </div>
      );
    case 'declined':
      return (
        <div className="notice notice--warning" role="alert">
          <p>Your card payment was declined, so no money was taken. Try again, or use another card.</p>
        </div>
      );
    case 'failed':
      return (
        <div className="notice notice--warning" role="alert">
          <p>Your card payment did not go through, so no money was taken. Please try again.</p>
        </div>
      );
    case 'notConfirmed':
      return (
        <div className="notice notice--warning" role="alert">
          <p>We could not confirm your payment: {outcome.message}</p>
          <p>If money was taken from your card, contact your pharmacy.</p>
        </div>
      );
  }
}

/** The PIN as the locker's keypad wants it, with a Copy button (the digits alone). */
function Pin({ pin }: { pin: string }) {
  const [copied, setCopied] = useState<string | null>(null);
  async function copy() {
    try {
      await navigator.clipboard.writeText(pin.replace(/\s+/g, ''));
      setCopied('PIN copied');
    } catch {
      setCopied('Could not copy: select the PIN and copy it instead');
    }
  }
  return (
    <div className="pin">
      <span className="pin__label">Your collection PIN</span>
      <span className="pin__value" data-testid="pin">
        {pin}
      </span>
      <button className="button button--secondary" type="button" onClick={copy}>
        Copy PIN
      </button>
      <span role="status">{copied}</span>
    </div>
  );
}

/** Pay by card (Judopay's hosted page) or declare an exemption. */
function Pay(props: { orderId: string; amount: number; cardPayments: boolean; retry: boolean; onDeclare: () => void }) {
  const [errors, setErrors] = useState<ErrorItem[]>([]);
  const [busy, setBusy] = useState(false);

  async function payByCard() {
    if (busy) return;
    setBusy(true);
    setErrors([]);
    try {
      const session = await rpc('checkout', 'createJudoPaymentSession', { orderId: props.orderId });
      // Judopay's hosted page is opened with its reference in the address (a GET, so the page's
      // form-action stays its own); Judopay sends the browser back here with the receipt.
      const url = new URL(session.postUrl);
      url.searchParams.set('reference', session.reference);
      window.location.assign(url.toString());
    } catch (error) {
      setErrors([{ message: messageOf(error) }]);
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="pay-title">
      <h2 id="pay-title">{props.retry ? 'Try again' : `Pay ${formatPence(props.amount)}`}</h2>
      <ErrorSummary errors={errors} />
      <p>
        There is {formatPence(props.amount)} to pay for this order. If you do not have to pay for prescriptions, declare
        an exemption instead.
      </p>
      <div className="actions">
        {props.cardPayments && (
          <button className="button" type="button" onClick={payByCard} disabled={busy}>
            Pay by card
          </button>
        )}
        <button className="button button--secondary" type="button" onClick={props.onDeclare} disabled={busy}>
          Declare an exemption
        </button>
      </div>
      {!props.cardPayments && <p>To pay, contact your pharmacy.</p>}
    </section>
  );
}
