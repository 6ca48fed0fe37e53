import type { PatientOrderDetails, PatientOrderSummary } from '@medlocker/core';
import { type ReactNode, useState } from 'react';
import { messageOf, rpc } from '../api.ts';
import { type ErrorItem, ErrorSummary, useBusy } from '../form.tsx';
import { cardsInWords, formatMoment, formatPence, mayDeclare, paymentOf, statusOf } from '../format.ts';
import { t } from '../i18n/index.ts';
import { Page } from '../ui.tsx';

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
  const { order, pin, cardPayments, acceptedCards } = props.details;
  const status = statusOf(order);
  const owes = order.paymentRequired && order.amountDue > 0 && order.live && !order.expired;
  return (
    <Page title={t('order.title')} headerAction={props.headerAction}>
      {props.outcome && (
        <Outcome
          outcome={props.outcome}
          stillToPay={owes ? order.amountDue : 0}
          contact={reach(props.details.pharmacy)}
        />
      )}
      {props.givenName && <p className="lead">{t('order.hello', { name: props.givenName })}</p>}
      <h1>{t('order.heading', { business: order.businessName })}</h1>
      <p>
        <span className={`status status--${status.tone}`}>{status.text}</span>
      </p>
      <p>{sentenceOf(props.details)}</p>

      {pin && <Pin pin={pin} />}

      {owes && (
        <Pay
          order={order}
          cardPayments={cardPayments}
          acceptedCards={acceptedCards}
          contact={reach(props.details.pharmacy)}
          retry={props.outcome?.kind === 'declined' || props.outcome?.kind === 'failed'}
          onDeclare={props.onDeclare}
        />
      )}

      <h2>{t('order.details')}</h2>
      <OrderDetails details={props.details} />

      {order.paymentStatus === 'paid' && <Receipt order={order} sentBefore={props.details.receiptSentTo} />}

      <p>
        <a
          href="/p"
          onClick={(event) => {
            event.preventDefault();
            props.onOrders();
          }}
        >
          {t('order.allOrders')}
        </a>
      </p>
    </Page>
  );
}

/** Where the order is and its times: the locker, slot and pharmacy, collect by, paid, collected. */
function OrderDetails({ details }: { details: PatientOrderDetails }) {
  const { order, location, pharmacy } = details;
  const payment = paymentOf(order);
  const address = pharmacy.address;
  return (
    <dl className="summary-list">
      <Row term={t('order.reference')}>{order.reference}</Row>
      {order.machineName && <Row term={t('order.locker')}>{order.machineName}</Row>}
      {location && order.live && <Row term={t('order.slot')}>{location}</Row>}
      <Row term={t('order.pharmacy')}>
        {pharmacy.name}
        {address && (
          <>
            <br />
            {[address.line1, address.line2, address.line3, address.postTown, address.postcode]
              .filter(Boolean)
              .join(', ')}
          </>
        )}
      </Row>
      {(pharmacy.phone || pharmacy.email) && (
        <Row term={t('order.contact')}>
          {pharmacy.phone && <a href={`tel:${pharmacy.phone.replace(/[^\d+]/g, '')}`}>{pharmacy.phone}</a>}
          {pharmacy.phone && pharmacy.email && <br />}
          {pharmacy.email && <a href={`mailto:${pharmacy.email}`}>{pharmacy.email}</a>}
        </Row>
      )}
      {order.expiresAt !== null && order.live && (
        <Row term={order.expired ? t('order.expired') : t('order.collectBy')}>{formatMoment(order.expiresAt)}</Row>
      )}
      {payment && <Row term={t('order.payment')}>{payment}</Row>}
      {order.collected !== null && <Row term={t('order.collected')}>{formatMoment(order.collected)}</Row>}
      {order.cancelled !== null && <Row term={t('order.cancelled')}>{formatMoment(order.cancelled)}</Row>}
      <Row term={t('order.ordered')}>{formatMoment(order.created)}</Row>
    </dl>
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

/** How to reach the pharmacy, after "Contact them": " on 0121 496 0000", " at shop@…", or nothing known. */
function reach(pharmacy: PatientOrderDetails['pharmacy']): string {
  if (pharmacy.phone) return t('contact.phone', { phone: pharmacy.phone });
  if (pharmacy.email) return t('contact.email', { email: pharmacy.email });
  return '';
}

/** One sentence on what to do (or what happened), by the order's state. */
function sentenceOf({ order, pin, pharmacy }: PatientOrderDetails): string {
  const contact = reach(pharmacy);
  if (order.status === 'cancelled') return t('sentence.cancelled', { contact });
  if (order.status === 'collected') return t('sentence.collected');
  if (order.status === 'removed') return t('sentence.removed', { contact });
  if (order.expired) return t('sentence.expired', { contact });
  if (order.status === 'new') return t('sentence.new');
  if (order.onHold) return t('sentence.onHold');
  if (pin) return t('sentence.pin');
  if (order.paymentRequired && order.amountDue > 0) {
    if (order.exemptionCode) return t('sentence.restToPay');
    return mayDeclare(order) ? t('sentence.payOrDeclare') : t('sentence.pay');
  }
  return t('sentence.inLocker');
}

function Outcome({ outcome, stillToPay, contact }: { outcome: PaymentOutcome; stillToPay: number; contact: string }) {
  // Done (paid, declared) is news the page announces politely; a refusal is an alert.
  const done = outcome.kind === 'paid' || outcome.kind === 'declared';
  return (
    <div className={done ? 'notice notice--ok' : 'notice notice--warning'} role={done ? 'status' : 'alert'}>
      {outcomeSentences(outcome, stillToPay, contact).map((sentence) => (
        <p key={sentence}>{sentence}</p>
      ))}
    </div>
  );
}

function outcomeSentences(outcome: PaymentOutcome, stillToPay: number, contact: string): string[] {
  switch (outcome.kind) {
    case 'paid':
      return [t('outcome.paid')];
    case 'declared':
      return [
        t('outcome.declared'),
        ...(stillToPay > 0 ? [t('outcome.declaredStillToPay', { amount: formatPence(stillToPay) })] : []),
        ...(outcome.warning ? [outcome.warning] : []),
      ];
    case 'declined':
      return [t('outcome.declined')];
    case 'failed':
      return [t('outcome.failed')];
    case 'notConfirmed':
      return [t('outcome.notConfirmed', { reason: outcome.message }), t('outcome.ifTaken', { contact })];
  }
}

/** The PIN as the locker's keypad wants it, with a Copy button (the digits alone). */
function Pin({ pin }: { pin: string }) {
  const [copied, setCopied] = useState<string | null>(null);
  async function copy() {
    try {
      await navigator.clipboard.writeText(pin.replace(/\s+/g, ''));
      setCopied(t('pin.copied'));
    } catch {
      setCopied(t('pin.notCopied'));
    }
  }
  return (
    <div className="pin">
      <span className="pin__label">{t('pin.label')}</span>
      <span className="pin__value" data-testid="pin">
        {pin}
      </span>
      <button className="button button--secondary" type="button" onClick={copy}>
        {t('pin.copy')}
      </button>
      <span role="status">{copied}</span>
    </div>
  );
}

/** What the amount to pay is for, in a sentence. */
function owedFor(order: PatientOrderSummary): string {
  const due = formatPence(order.amountDue);
  if (order.exemptionCode) {
    return t('pay.owedAfterExemption', { due });
  }
  if (order.prescriptionCharge > 0 && order.retailCharge > 0) {
    return t('pay.owedBoth', {
      due,
      charge: formatPence(order.prescriptionCharge),
      other: formatPence(order.retailCharge),
    });
  }
  if (order.prescriptionCharge > 0) return t('pay.owedCharge', { due });
  return t('pay.owed', { due });
}

/**
 * Pay by card (Judopay's hosted page), with the card schemes the pharmacy accepts beside it, or declare
 * an exemption (only for an order with a prescription charge, and once). Without card payments, the
 * patient is told to declare an exemption or contact the pharmacy.
 */
function Pay(props: {
  order: PatientOrderSummary;
  cardPayments: boolean;
  acceptedCards: PatientOrderDetails['acceptedCards'];
  /** How to reach the pharmacy (" on 0121 496 0000"), or empty. */
  contact: string;
  retry: boolean;
  onDeclare: () => void;
}) {
  const { order } = props;
  const [errors, setErrors] = useState<ErrorItem[]>([]);
  const [busy, setBusy] = useState(false);
  const declarable = mayDeclare(order);

  async function payByCard() {
    if (busy) return;
    setBusy(true);
    setErrors([]);
    try {
      const session = await rpc('checkout', 'createJudoPaymentSession', { orderId: order.id });
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
      <h2 id="pay-title">
        {props.retry ? t('page.tryAgain') : t('pay.heading', { amount: formatPence(order.amountDue) })}
      </h2>
      <ErrorSummary errors={errors} />
      <p>{owedFor(order)}</p>
      {declarable && (
        <p>
          {t('pay.declareInstead')}
          {order.retailCharge > 0 && ` ${t('pay.otherStillPaid', { other: formatPence(order.retailCharge) })}`}
        </p>
      )}
      <div className="actions">
        {props.cardPayments && (
          <button
            className="button"
            type="button"
            onClick={payByCard}
            disabled={busy}
            aria-describedby="accepted-cards"
          >
            {t('pay.byCard')}
          </button>
        )}
        {declarable && (
          <button className="button button--secondary" type="button" onClick={props.onDeclare} disabled={busy}>
            {t('exemption.declare')}
          </button>
        )}
      </div>
      {props.cardPayments ? (
        <p className="hint" id="accepted-cards">
          {t('pay.cards', { cards: cardsInWords(props.acceptedCards) })}
        </p>
      ) : (
        <p>
          {t('pay.noCards')}{' '}
          {declarable
            ? t('pay.declareOrContact', { contact: props.contact })
            : t('pay.contact', { contact: props.contact })}
        </p>
      )}
    </section>
  );
}

/**
 * A paid order's receipt (checkout/sendReceipt): the server sends it by email when the pharmacy has an
 * address for the patient, else by text, and answers where it went (masked). Again is allowed, at most
 * once a minute (the server's 429 says how long to wait).
 */
function Receipt({ order, sentBefore }: { order: PatientOrderSummary; sentBefore: string | null }) {
  const [errors, setErrors] = useState<ErrorItem[]>([]);
  const { busy, run } = useBusy();
  const [sentNow, setSentNow] = useState<string | null>(null);
  const sent = sentNow !== null || order.receiptSent;
  const said =
    sentNow ??
    (sentBefore ? t('receipt.sentTo', { to: sentBefore }) : order.receiptSent ? t('receipt.sentBefore') : '');

  const send = () =>
    run(
      async () => {
        setErrors([]);
        const answer = await rpc('checkout', 'sendReceipt', { orderId: order.id });
        setSentNow(t(answer.channel === 'email' ? 'receipt.sentByEmail' : 'receipt.sentByText', { to: answer.sentTo }));
      },
      (error) => setErrors([{ message: messageOf(error) }]),
    );

  return (
    <section aria-labelledby="receipt-title">
      <h2 id="receipt-title">{t('receipt.title')}</h2>
      <ErrorSummary errors={errors} />
      {!sent && <p>{t('receipt.offer')}</p>}
      <p role="status">{said}</p>
      <div className="actions">
        <button className={sent ? 'button button--secondary' : 'button'} type="button" onClick={send} disabled={busy}>
          {sent ? t('receipt.again') : t('receipt.send')}
        </button>
      </div>
    </section>
  );
}
