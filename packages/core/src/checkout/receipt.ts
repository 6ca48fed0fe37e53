import { formatLongDate, formatTime } from '../format/date.ts';
import { formatPence } from '../format/money.ts';

/*
 * The receipt a patient may ask for once their order is paid (`checkout/sendReceipt`): by email when the
 * patient has an address, else by SMS. It names the pharmacy, the order, what was paid and Judopay's
 * receipt id; never the PIN.
 */

/** How often one order's receipt may be sent: one a minute, five in all (each costs and pesters). */
export const receiptPolicy = { resendAfterSeconds: 60, maxPerOrder: 5 } as const;

/** The message's key on the outbox and the timeline. */
export const receiptTemplateKey = 'orderReceipt';

export type ReceiptFacts = {
  pharmacy: string;
  reference: string;
  /** Pence. */
  amount: number;
  /** Judopay's receipt id (the order's paymentId). */
  receiptId: string;
  /** When the payment was taken (ms). */
  paidAt: number;
  /** An exemption declared on the order: the card paid its retail charge only. */
  exemptionCode?: string | null;
};

const when = (at: number) => `${formatLongDate(at)} at ${formatTime(at, { seconds: false })}`;

/** The email's subject. */
export const receiptSubject = (facts: Pick<ReceiptFacts, 'pharmacy' | 'reference'>) =>
  `Your receipt from ${facts.pharmacy} (order ${facts.reference})`;

/** The email's body: one fact a line, as a till receipt reads. */
export const receiptEmailText = (facts: ReceiptFacts) =>
  [
    `Receipt from ${facts.pharmacy}`,
    '',
    `Order reference: ${facts.reference}`,
    `Amount paid: ${formatPence(facts.amount)} by card`,
    ...(facts.exemptionCode
      ? [`NHS prescription charge: not charged (exemption ${facts.exemptionCode} declared)`]
      : []),
    `Card payment receipt: ${facts.receiptId}`,
    `Date: ${when(facts.paidAt)}`,
    '',
    'Thank you. Keep this email as your receipt.',
  ].join('\n');

/** The SMS: the same facts in one message. */
export const receiptSmsText = (facts: ReceiptFacts) =>
  `Receipt from ${facts.pharmacy}: order ${facts.reference}, ${formatPence(facts.amount)} paid by card on ${when(facts.paidAt)}${
    facts.exemptionCode ? ` (prescription charge not charged: exemption ${facts.exemptionCode})` : ''
  }. Card receipt ${facts.receiptId}.`;
