import { type } from 'arktype';
import { limits } from '../limits.ts';
import { validationMessage } from '../validation/catalogue.ts';
import { reject } from '../validation/rule.ts';
import { Id as ContractId, FreeText, stringLimits, upTo } from '../validation/string-limits.ts';

/** The card payment provider; the only one (SPEC §9). */
export const paymentProviders = ['judo'] as const;

/** Judopay account details; `secret` and `token` come back masked after saving. */
export const JudoSettings = type({
  id: upTo(stringLimits.credential),
  sandbox: 'boolean',
  token: upTo(stringLimits.credential),
  secret: upTo(stringLimits.credential),
  showVisa: 'boolean',
  showAmex: 'boolean',
  showMastercard: 'boolean',
});
export type JudoSettings = typeof JudoSettings.infer;

/**
 * A business's payment settings (SPEC §3, §5): contact number and legal info required; with the card
 * provider, its id, secret and token each at least 8 characters.
 */
export const PaymentSettings = type({
  businessId: ContractId,
  contactNumber: upTo(stringLimits.phone),
  legalInfo: FreeText,
  provider: "'judo' | null",
  judo: JudoSettings.or('null'),
}).narrow((s, ctx) => {
  let ok = true;
  for (const key of ['contactNumber', 'legalInfo'] as const) {
    if (s[key].trim() === '') ok = reject(ctx, 'REQUIRED', undefined, [...ctx.path, key]);
  }
  if (s.provider === 'judo') {
    if (!s.judo) return reject(ctx, 'REQUIRED', undefined, [...ctx.path, 'judo']);
    for (const key of ['id', 'secret', 'token'] as const) {
      if (s.judo[key].length < limits.paymentCredentialMinLength) {
        ok = reject(ctx, 'INVALID_LENGTH', validationMessage.minLength(limits.paymentCredentialMinLength), [
          ...ctx.path,
          'judo',
          key,
        ]);
      }
    }
  }
  return ok;
});
export type PaymentSettings = typeof PaymentSettings.infer;

/** What the patient front end sends to start a card payment (SPEC §3). `amount` in pence. */
export const PaymentSessionRequest = type({
  judoId: 'string',
  amount: 'number.integer > 0',
  currency: "'GBP'",
  yourConsumerReference: 'string',
  yourPaymentReference: 'string',
});
export type PaymentSessionRequest = typeof PaymentSessionRequest.infer;
