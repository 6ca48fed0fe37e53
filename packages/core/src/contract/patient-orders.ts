import { type } from 'arktype';
import { Address } from '../business/address.ts';
import { cardSchemes } from '../checkout/card-schemes.ts';
import { LanguageChoice, Locale } from '../i18n/language.ts';
import { ExemptionCode } from '../order/exemption-code.ts';
import { Order } from '../order/order.ts';
import { OrderStatus, PaymentStatus } from '../order/statuses.ts';
import { Timestamp } from '../stamps.ts';
import { Id } from '../validation/string-limits.ts';
import { defineArea, staff } from './define.ts';
import { byOrderId, withoutInput } from './method-builders.ts';
import { patientOnly } from './patient-auth.ts';

/**
 * What staff asking for a patient message get back: whether a message was queued and, either way, a
 * sentence saying what happened ("No message sent: …" when nothing was), which the order's timeline
 * also records. Never a pretend success: `sent` is false whenever no new message left.
 */
const MessageAnswer = type({ order: Order, sent: 'boolean', message: 'string' });

const pence = 'number.integer >= 0';

/**
 * An order as its patient sees it on the patient page: no staff names, barcodes or notes. `live` is a
 * loaded (or not yet loaded) order still to collect; `paymentRequired` a charge to pay or declare an
 * exemption for before the locker opens; `location` the slot the bag is in.
 */
export const PatientOrderSummary = type({
  id: Id,
  reference: 'string',
  businessName: 'string',
  status: OrderStatus,
  /** A loaded order past its expiry (its status stays loaded until the pharmacy removes the bag). */
  expired: 'boolean',
  live: 'boolean',
  /**
   * The pharmacy paused collection (staff held the PIN, e.g. after a temperature excursion): no PIN is
   * shown and the locker refuses it until they release it, which the patient is told of.
   */
  onHold: 'boolean',
  paymentStatus: PaymentStatus,
  paymentRequired: 'boolean',
  prescriptionCharge: pence,
  retailCharge: pence,
  /** What is still owed (0 when paid, exempt or free; the retail charge alone once an exemption is declared). */
  amountDue: pence,
  amountPaid: pence,
  /** A receipt of the card payment was sent (checkout/sendReceipt). */
  receiptSent: 'boolean',
  exemptionCode: ExemptionCode.or('null'),
  machineName: 'string | null',
  expiresAt: Timestamp.or('null'),
  collected: Timestamp.or('null'),
  cancelled: Timestamp.or('null'),
  created: Timestamp,
});
export type PatientOrderSummary = typeof PatientOrderSummary.infer;

/**
 * One order on the patient page: the summary, where to collect it, and the PIN grouped `1234 5678`,
 * only while the bag is in the locker, unexpired, not on hold, and nothing is left to pay at a paying machine.
 */
export const PatientOrderDetails = type({
  order: PatientOrderSummary,
  /** The slot the bag is in, once loaded. */
  location: 'string | null',
  /**
   * The pharmacy the locker belongs to, and its address (machines have none of their own); how to
   * reach it: the contact number of its payment settings, and its email address (null when it has none).
   */
  pharmacy: type({ name: 'string', address: Address.or('null'), phone: 'string | null', email: 'string | null' }),
  pin: 'string | null',
  /** Whether the page may offer Pay by card (the pharmacy takes card payments with some scheme). */
  cardPayments: 'boolean',
  /** The card schemes the pharmacy accepts, for the page to list (empty without card payments). */
  acceptedCards: type.enumerated(...cardSchemes).array(),
  /** Where the last receipt went, masked (`p•••@example.com`), once one was sent; else null. */
  receiptSentTo: 'string | null',
  /** The language the page shows: the patient's choice, else the business's default (bilingual: Welsh). */
  language: Locale,
});
export type PatientOrderDetails = typeof PatientOrderDetails.infer;

/**
 * Patient orders (SPEC §7 patientOrders). Staff ask here for a loaded order's patient messages again;
 * `list` and `get` (the patient page's) come with the patient front end. A loaded order that has not
 * expired only: any other state is 409 INVALID_TRANSITION naming it (docs/ORDERS.md).
 */
export const patientOrders = defineArea({
  list: withoutInput({
    output: type({ orders: PatientOrderSummary.array() }),
    access: patientOnly('self'),
    summary: "The signed-in patient's orders, live ones first, then past ones newest first (at most 100); no PINs.",
  }),
  get: byOrderId({
    output: PatientOrderDetails,
    access: patientOnly({ order: 'orderId' }),
    summary:
      "One of the signed-in patient's orders: where to collect it, what is owed, and the PIN once it may be used (another patient's order: 404).",
  }),
  setLanguage: {
    input: type({ orderId: Id, language: LanguageChoice }),
    output: type({ language: Locale }),
    access: patientOnly({ order: 'orderId' }),
    summary:
      "Keeps the signed-in patient's language (en or cy) for the page and their next messages, in place of the business's default.",
  },
  resendOrderReadyMessage: byOrderId({
    output: MessageAnswer,
    access: staff({ order: 'orderId' }),
    summary:
      'Sends the patient of a loaded, unexpired order its order-ready message again (payment required instead while charges are unpaid at a paying machine); a second press within 10 s sends nothing more.',
  }),
  sendOrderExpiryMessage: byOrderId({
    output: MessageAnswer,
    access: staff({ order: 'orderId' }),
    summary:
      'Sends the patient of a loaded, unexpired order the expiry reminder now; a second press within 10 s sends nothing more.',
  }),
});
