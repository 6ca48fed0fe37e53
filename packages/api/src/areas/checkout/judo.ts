import { randomBytes } from 'node:crypto';
import { AppError, acceptedCardSchemes, type PaymentAttemptStatus } from '@medlocker/core';
import type { AppDeps } from '../../context/deps.ts';
import { JudopayError, type JudoReceipt, judopayClient, sameJudoId } from '../../payments/judopay.ts';
import { createSecretBox } from '../../secrets/secret-box.ts';
import { readPaymentSettings } from '../payment-settings/index.ts';
import type { PaymentAttempt } from './repository.ts';

/* The business's Judopay account, its failures, and the checks a Judopay receipt must pass. */

/** A completed attempt's result. */
export type PaymentOutcome = Exclude<PaymentAttemptStatus, 'created'>;

/** The business's Judopay id and a client on its credentials (its sandbox or the live API). */
export async function judoOf(deps: AppDeps, businessId: string) {
  const settings = await readPaymentSettings(deps.db, createSecretBox(deps.config.secretsKey), businessId);
  const judo = settings?.provider === 'judo' ? settings.judo : null;
  if (!judo?.id || !judo.token || !judo.secret) {
    throw new AppError('CONFLICT', 'This pharmacy does not take card payments');
  }
  const apiUrl = judo.sandbox ? deps.config.judopay.apiUrl : deps.config.judopay.liveApiUrl;
  return {
    judoId: judo.id,
    client: judopayClient({ apiUrl, token: judo.token, secret: judo.secret }),
    /** The schemes the business's toggles accept now (Visa, Mastercard, Amex). */
    accepted: acceptedCardSchemes(judo),
  };
}

/** Judopay could not be reached or refused: the patient may try again; the reason goes to the log only. */
export function unavailable(deps: AppDeps, error: unknown, context: Record<string, unknown>): AppError {
  const reason = error instanceof JudopayError ? error.reason : (error as Error).message;
  deps.logger.warn('Judopay call failed', { ...context, reason, httpStatus: (error as JudopayError).httpStatus });
  return new AppError('UNAVAILABLE', 'Card payments are not available right now: please try again in a few minutes');
}

/** Our payment reference: 128 random bits (unguessable, never reused: Judopay refuses a repeat). */
export const newPaymentReference = () => `ml_${randomBytes(16).toString('base64url')}`;

export const outcomeOf: Record<string, PaymentOutcome | undefined> = {
  Success: 'succeeded',
  Declined: 'declined',
  Error: 'error',
};

const mismatch = (what: string) =>
  new AppError('CONFLICT', `This receipt does not match the payment started for this order (${what})`, [
    { path: 'receiptId', id: 'RECEIPT_MISMATCH', message: what },
  ]);

export const otherOrder = () =>
  new AppError('CONFLICT', 'This receipt belongs to another order', [
    { path: 'receiptId', id: 'RECEIPT_OTHER_ORDER', message: 'This receipt belongs to another order' },
  ]);

/** Refuses a receipt that does not match its attempt in every field that decides what was paid. */
export function checkReceipt(receipt: JudoReceipt, attempt: PaymentAttempt, orderId: string): void {
  if (attempt.orderId !== orderId) throw otherOrder();
  if (receipt.type !== null && receipt.type !== 'Payment') throw mismatch('type');
  if (!outcomeOf[receipt.result]) throw mismatch('result');
  if (receipt.amount !== attempt.amount) throw mismatch('amount');
  if (receipt.currency !== attempt.currency) throw mismatch('currency');
  if (!sameJudoId(receipt.judoId, attempt.judoId)) throw mismatch('judoId');
}
