// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${name} placeholders are the content of the messages.
import type { SmsTemplateKey } from './sms-templates.ts';

/**
 * Patient messages SPEC §3 has no template for, so businesses cannot reword them: the order expired
 * uncollected, and staff cancelled an order the patient had been told about. Same placeholders as the
 * templates; each fits one 160-character SMS page with typical values (docs/decisions/reports.md). Staff holding
 * an order's PIN (the evidence pack) pauses its collection: the patient is told, and told again on
 * release (without the PIN: the one they were sent works again).
 */
export const fixedPatientMessages = {
  orderExpired:
    'Your order from ${businessName} was not collected by ${expires}, so its PIN no longer works. Please contact ${businessName}.',
  orderCancelled:
    'Your order at ${machineAndBusiness} has been cancelled and its PIN no longer works. Please contact ${businessName} with any questions.',
  orderPinHeld:
    'Collection of your order from ${machineAndBusiness} is paused while it is checked. We will tell you when you can collect it.',
  orderPinReleased:
    'Good news: you can collect your order from ${machineAndBusiness} again, with the PIN you were sent, by ${expires}.',
} as const;

/** Every message an order may send its patient: a business's template, or one of the fixed ones. */
export type PatientMessageKey = SmsTemplateKey | keyof typeof fixedPatientMessages;

/** What each patient message is, as staff read it on a timeline or in an answer. */
export const patientMessageNames: Record<PatientMessageKey, string> = {
  machineBackInOrder: 'Machine working again',
  machineOutOfOrder: 'Machine out of order',
  orderReady: 'Order ready',
  orderUpdated: 'Order updated',
  orderRemoved: 'Order removed',
  orderExpiring: 'Expiry reminder',
  paymentRequired: 'Payment required',
  orderCollected: 'Order collected',
  orderExpired: 'Order expired',
  orderCancelled: 'Order cancelled',
  orderPinHeld: 'Collection paused',
  orderPinReleased: 'Collection resumed',
};
