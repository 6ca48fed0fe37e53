import { type } from 'arktype';
import {
  CheckoutOrderInput,
  CompleteJudoPaymentInput,
  DeclareExemptionInput,
  JudoPaymentSession,
  paymentAttemptStatuses,
} from '../checkout/checkout.ts';
import { defineArea } from './define.ts';
import { patientOnly } from './patient-auth.ts';
import { PatientOrderSummary } from './patient-orders.ts';

/*
 * The checkout (SPEC §7 checkout), for the patient of a patient session on their own order: a card
 * payment on Judopay's hosted page and its receipt, or an NHS exemption declaration. The rules are the api's
 * areas/checkout (docs/decisions/checkout.md, "Checkout core"). `sendReceipt` is staff's too (a patient asking
 * the pharmacy for their receipt).
 */
export const checkout = defineArea({
  createJudoPaymentSession: {
    input: CheckoutOrderInput,
    output: JudoPaymentSession,
    access: patientOnly({ order: 'orderId' }),
    summary:
      "Starts a card payment of what the order owes (the amount is the server's, never the client's: the retail charge alone once an exemption is declared) on Judopay's hosted page; Judopay sends the browser back to the order's page. 409 when there is nothing to pay.",
  },
  completeJudoOrderPayment: {
    input: CompleteJudoPaymentInput,
    output: type({
      order: PatientOrderSummary,
      outcome: type.enumerated(...paymentAttemptStatuses.filter((s) => s !== 'created')),
      changed: 'boolean',
    }),
    access: patientOnly({ order: 'orderId' }),
    summary:
      "Confirms the browser's Judopay receipt with Judopay and settles the order when every field matches this order's payment; the same receipt twice changes nothing.",
  },
  sendReceipt: {
    input: CheckoutOrderInput,
    output: type({
      order: PatientOrderSummary,
      channel: "'email' | 'sms'",
      /** Where it went, masked as the timeline shows it (`a•••@example.com`, `07••• •••123`). */
      sentTo: 'string',
    }),
    // The patient on their own order; staff too, for a patient who asks the pharmacy for one.
    access: { actors: ['patient', 'support', 'pharmacy'], scope: { order: 'orderId' } },
    summary:
      'Sends the receipt of a paid order to its patient: by email when they have an address, else by SMS (never the PIN). 409 when the order is not paid; one a minute and five per order (429).',
  },
  declareExemption: {
    input: DeclareExemptionInput,
    output: type({ order: PatientOrderSummary }),
    access: patientOnly({ order: 'orderId' }),
    summary:
      'Declares an NHS prescription charge exemption (one of the NHS exemption codes A, B, D to H, K, L, M, S, U, W) with the declarant and a drawn signature; the order becomes exemption_declared, or, with a retail charge too, stays unpaid for the retail charge alone. 409 without a prescription charge.',
  },
});
