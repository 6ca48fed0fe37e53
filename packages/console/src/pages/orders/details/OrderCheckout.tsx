import {
  cardSchemeNames,
  exemptionCodeLabels,
  formatDateTime,
  formatPence,
  type Order,
  type OrderEvent,
} from '@medlocker/core';
import { type ReactNode, useState } from 'react';
import { messageOf, rpc } from '../../../api/client.ts';
import { queryClient } from '../../../api/queries.ts';
import { useMayCall } from '../../../state/access.ts';
import { Button } from '../../../ui/Button.tsx';
import { t } from './i18n/index.ts';
import { orderItem as item } from './order-item.tsx';

const isImage = (url: string | null | undefined): url is string =>
  typeof url === 'string' && /^data:image\/(png|jpeg);base64,/i.test(url);

/** The timeline's record of the declaration, for when it was made (older declarations keep it only there). */
const declaredEvent = (events: readonly OrderEvent[]) => events.find((e) => e.code === 'EXEMPTION_DECLARED');

/** The card payment that settled an order paid by card: the receipt's scheme if the timeline names it. */
const schemeOf = (events: readonly OrderEvent[], receiptId: string | null) => {
  const event = events.find((e) => e.code === 'PAYMENT_SUCCEEDED' && e.data?.receiptId === receiptId);
  const scheme = event?.data?.cardScheme;
  return typeof scheme === 'string' && scheme in cardSchemeNames
    ? cardSchemeNames[scheme as keyof typeof cardSchemeNames]
    : null;
};

/** An order and its events, and where a receipt sent or refused is told. */
type CheckoutProps = {
  order: Order;
  events: readonly OrderEvent[];
  onSent: (message: string) => void;
  onRefused: (message: string) => void;
};

/**
 * The order page's checkout parts: how a paid order was paid (amount, Judopay's receipt id,
 * whether its receipt was sent, and Send receipt for staff whom a patient asks), and an exemption
 * declaration as made: the code and its meaning, who declared and whether on the patient's behalf,
 * when, and the drawn signature.
 */
export function OrderCheckout({ order, events, onSent, onRefused }: CheckoutProps) {
  return (
    <>
      {order.paymentStatus === 'paid' && (
        <PaymentDetails order={order} events={events} onSent={onSent} onRefused={onRefused} />
      )}
      {order.exemptionCode && <ExemptionDeclaration order={order} events={events} />}
    </>
  );
}

function PaymentDetails({ order, events, onSent, onRefused }: CheckoutProps) {
  const maySend = useMayCall(['checkout', 'sendReceipt']);
  const [pending, setPending] = useState(false);
  const send = async () => {
    setPending(true);
    try {
      const sent = await rpc('checkout', 'sendReceipt', { orderId: order.id });
      const values = { sentTo: sent.sentTo };
      onSent(
        sent.channel === 'email'
          ? t('orderPage.checkout.receiptSentByEmail', values)
          : t('orderPage.checkout.receiptSentBySms', values),
      );
      await queryClient.invalidateQueries({ queryKey: ['orders'] });
    } catch (error) {
      onRefused(messageOf(error));
    } finally {
      setPending(false);
    }
  };
  const scheme = schemeOf(events, order.paymentId);
  return (
    <CheckoutPart id="order-payment" title={t('orderPage.checkout.payment')}>
      <dl className="details">
        {item(
          t('orderPage.checkout.amountPaid'),
          scheme
            ? t('orderPage.checkout.paidByCardScheme', { amount: formatPence(order.amountPaid), scheme })
            : t('orderPage.checkout.paidByCard', { amount: formatPence(order.amountPaid) }),
        )}
        {item(t('orderPage.checkout.cardReceipt'), order.paymentId)}
        {item(
          t('orderPage.checkout.receiptSent'),
          order.receiptSent ? t('orderPage.checkout.yes') : t('orderPage.checkout.no'),
        )}
      </dl>
      {maySend && (
        <Button onPress={send} isPending={pending}>
          {t('orderPage.checkout.sendReceipt')}
        </Button>
      )}
    </CheckoutPart>
  );
}

/** A part of the checkout (the payment, the exemption declaration), labelled by its h3. */
function CheckoutPart({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id}>
      <h3 id={id}>{title}</h3>
      {children}
    </section>
  );
}

const behalfOf = (onBehalf: boolean) =>
  onBehalf ? t('orderPage.checkout.byRepresentative') : t('orderPage.checkout.byPatient');

function ExemptionDeclaration({ order, events }: { order: Order; events: readonly OrderEvent[] }) {
  const code = order.exemptionCode;
  const details = order.exemptionDetails;
  if (!code) return null;
  const declaredAt = details?.declaredAt ?? declaredEvent(events)?.created;
  const name = details?.nameOfDeclarant ?? '';
  return (
    <CheckoutPart id="order-exemption" title={t('orderPage.checkout.exemptionDeclaration')}>
      <dl className="details">
        {item(
          t('orderPage.checkout.exemption'),
          t('orderPage.checkout.exemptionValue', { code, meaning: exemptionCodeLabels[code] }),
        )}
        {item(t('orderPage.checkout.declaredBy'), name)}
        {item(t('orderPage.checkout.onBehalf'), details ? behalfOf(details.onBehalfOfPatient) : '')}
        {item(t('orderPage.checkout.declared'), declaredAt === undefined ? '' : formatDateTime(declaredAt))}
        {item(
          t('orderPage.checkout.signature'),
          isImage(details?.signature) ? (
            <img className="signature" src={details.signature} alt={t('orderPage.checkout.signatureOf', { name })} />
          ) : (
            t('orderPage.checkout.noSignature')
          ),
        )}
      </dl>
    </CheckoutPart>
  );
}
