import { type } from 'arktype';
import { ExemptionCode, type exemptionCodes } from '../order/exemption-code.ts';
import { Bool, Required } from '../validation/general.ts';
import { Id, stringLimits, upTo } from '../validation/string-limits.ts';

/*
 * The checkout of a charged order: a card payment on Judopay's hosted page, or an NHS
 * exemption declaration. The api's areas/checkout holds the rules; these are the shapes.
 */

/** The currency every MedLocker charge is in. */
export const checkoutCurrency = 'GBP';

/** A signature image (PNG or JPEG) is at most this many bytes: a drawn signature is a few KB. */
export const signatureMaxBytes = 65_536;

/**
 * The longest signature data URL read: base64 of `signatureMaxBytes` is ~87 KB; up to this, a larger
 * image still gets the size message (naming its size) rather than a length.
 */
export const signatureDataUrlMaxLength = 200_000;

/**
 * Exemption M (Tax Credit exemption certificate) is not valid for declarations made on or after
 * 6 April 2025 (REFERENCE.md): midnight in London, British Summer Time.
 */
export const exemptionMEndsAt = Date.UTC(2025, 3, 5, 23, 0);

/** W (HRT prescription prepayment certificate) covers HRT items only, which an order does not list. */
export const hrtOnlyExemptionCodes: readonly (typeof exemptionCodes)[number][] = ['W'];

/** The parts of an order that decide what is still owed on it. */
export type OrderCharges = {
  paymentStatus: 'not_required' | 'unpaid' | 'paid' | 'exemption_declared';
  /** Pence: the NHS prescription charge, which a declared exemption waives. */
  prescriptionCharge: number;
  /** Pence: the retail charge, which no NHS exemption covers. */
  retailCharge: number;
  exemptionCode: string | null;
};

/**
 * What is still owed on an order, in pence: nothing once it is paid, declared exempt or free; else its
 * retail charge, plus its prescription charge unless an exemption has been declared. An exemption waives
 * the NHS prescription charge only: on an order with both charges the declaration is recorded and the
 * order stays `unpaid` for the retail charge until it is paid by card (docs/decisions/checkout.md, "An exemption
 * covers the prescription charge only").
 */
export function orderAmountDue(order: OrderCharges): number {
  if (order.paymentStatus !== 'unpaid') return 0;
  return (order.exemptionCode === null ? order.prescriptionCharge : 0) + order.retailCharge;
}

/** An order to pay for or declare on. */
export const CheckoutOrderInput = type({ orderId: Id });
export type CheckoutOrderInput = typeof CheckoutOrderInput.infer;

/** A Judopay receipt to confirm for an order: the browser's copy names it, the server fetches it. */
export const CompleteJudoPaymentInput = type({ orderId: Id, receiptId: upTo(stringLimits.id, Required) });
export type CompleteJudoPaymentInput = typeof CompleteJudoPaymentInput.infer;

/**
 * An NHS exemption declared for an order (SPEC §5 codes): who declares (the patient, or a
 * representative on their behalf), and their drawn signature as a `data:image/png;base64,…` URL.
 */
export const DeclareExemptionInput = type({
  orderId: Id,
  exemptionCode: ExemptionCode,
  nameOfDeclarant: upTo(stringLimits.name, Required),
  onBehalfOfPatient: Bool,
  signature: upTo(signatureDataUrlMaxLength, Required),
});
export type DeclareExemptionInput = typeof DeclareExemptionInput.infer;

/** What a browser needs to send the patient to Judopay's hosted payment page. */
export const JudoPaymentSession = type({
  orderId: Id,
  judoId: 'string',
  /** Pence, computed by the server from the order. */
  amount: 'number.integer > 0',
  currency: 'string',
  /** Ours: fresh and unguessable for every attempt. */
  yourPaymentReference: 'string',
  /** Judopay's reference of the hosted payment. */
  reference: 'string',
  /** Judopay's payment page: the browser goes to `postUrl` with `reference`. */
  postUrl: 'string',
});
export type JudoPaymentSession = typeof JudoPaymentSession.infer;

/** How a payment attempt ended, as stored. */
export const paymentAttemptStatuses = ['created', 'succeeded', 'declined', 'error'] as const;
export type PaymentAttemptStatus = (typeof paymentAttemptStatuses)[number];

/** What each exemption code stands for, as printed on the back of the FP10 (REFERENCE.md). */
export const exemptionCodeLabels: Record<(typeof exemptionCodes)[number], string> = {
  A: 'aged 60 or over, or under 16',
  B: 'aged 16, 17 or 18 and in full-time education',
  D: 'maternity exemption certificate',
  E: 'medical exemption certificate',
  F: 'prescription prepayment certificate',
  G: 'prescription exemption certificate issued by the Ministry of Defence',
  L: 'HC2 certificate',
  H: 'Income Support or income-related Employment and Support Allowance',
  K: "income-based Jobseeker's Allowance",
  M: 'Tax Credit exemption certificate',
  S: 'Pension Credit guarantee credit',
  U: 'Universal Credit',
  W: 'HRT prescription prepayment certificate',
};
