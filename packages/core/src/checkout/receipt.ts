import { formatPence } from '../format/money.ts';
import { joinLanguages, type Locale } from '../i18n/language.ts';
import { expiresIn } from '../i18n/patient-wording.ts';

/*
 * The receipt a patient may ask for once their order is paid (`checkout/sendReceipt`): by email when the
 * patient has an address, else by SMS. It names the pharmacy, the order, what was paid and Judopay's
 * receipt id; never the PIN. In the patient's languages, as their order messages are (bilingual: Welsh
 * first, docs/decisions/languages.md); the Welsh wording is to be reviewed by a Welsh speaker.
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

const english = ['en'] as const;

/** The email's subject; bilingual: 'Welsh / English'. */
export const receiptSubject = (
  facts: Pick<ReceiptFacts, 'pharmacy' | 'reference'>,
  locales: readonly Locale[] = english,
) =>
  locales
    .map((l) =>
      l === 'cy'
        ? `Eich derbynneb gan ${facts.pharmacy} (archeb ${facts.reference})`
        : `Your receipt from ${facts.pharmacy} (order ${facts.reference})`,
    )
    .join(' / ');

/** The email's body in one language: one fact a line, as a till receipt reads. */
const emailIn = (locale: Locale, facts: ReceiptFacts) => {
  const paid = formatPence(facts.amount);
  const when = expiresIn(locale, facts.paidAt);
  const code = facts.exemptionCode;
  if (locale === 'cy') {
    return [
      `Derbynneb gan ${facts.pharmacy}`,
      '',
      `Cyfeirnod yr archeb: ${facts.reference}`,
      `Swm a dalwyd: ${paid} â cherdyn`,
      ...(code ? [`Tâl presgripsiwn GIG: heb ei godi (datganwyd esemptiad ${code})`] : []),
      `Derbynneb y taliad cerdyn: ${facts.receiptId}`,
      `Dyddiad: ${when}`,
      '',
      'Diolch. Cadwch yr e-bost hwn fel eich derbynneb.',
    ].join('\n');
  }
  return [
    `Receipt from ${facts.pharmacy}`,
    '',
    `Order reference: ${facts.reference}`,
    `Amount paid: ${paid} by card`,
    ...(code ? [`NHS prescription charge: not charged (exemption ${code} declared)`] : []),
    `Card payment receipt: ${facts.receiptId}`,
    `Date: ${when}`,
    '',
    'Thank you. Keep this email as your receipt.',
  ].join('\n');
};

/** The email's body, in each language asked for (Welsh first when both). */
export const receiptEmailText = (facts: ReceiptFacts, locales: readonly Locale[] = english) =>
  joinLanguages(locales.map((l) => emailIn(l, facts)));

/** The SMS in one language: the same facts in one message. */
const smsIn = (locale: Locale, facts: ReceiptFacts) => {
  const paid = formatPence(facts.amount);
  const when = expiresIn(locale, facts.paidAt);
  const code = facts.exemptionCode;
  if (locale === 'cy') {
    return `Derbynneb gan ${facts.pharmacy}: archeb ${facts.reference}, talwyd ${paid} â cherdyn ar ${when}${
      code ? ` (heb godi’r tâl presgripsiwn: esemptiad ${code})` : ''
    }. Derbynneb cerdyn ${facts.receiptId}.`;
  }
  return `Receipt from ${facts.pharmacy}: order ${facts.reference}, ${paid} paid by card on ${when}${
    code ? ` (prescription charge not charged: exemption ${code})` : ''
  }. Card receipt ${facts.receiptId}.`;
};

/** The SMS, in each language asked for (Welsh first when both). */
export const receiptSmsText = (facts: ReceiptFacts, locales: readonly Locale[] = english) =>
  joinLanguages(locales.map((l) => smsIn(l, facts)));
