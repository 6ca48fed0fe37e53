import { type } from 'arktype';
import { PaymentSettings } from '../settings/payment-settings.ts';
import { Id } from '../validation/string-limits.ts';
import { defineArea, staff } from './define.ts';
import { Ok } from './ok.ts';

/*
 * A business's card payment settings (SPEC §3 Payment settings, §4 save with confirmation, §5 rules,
 * §7 paymentSettings). The card provider's secret and token are encrypted at rest and never returned
 * in full: reads show `paymentSecretMask` followed by their last 4 characters, and a masked value
 * sent back (anything starting with '*') keeps the stored one.
 */

/** What stands for the hidden part of a stored secret or token. */
export const paymentSecretMask = '********';

/** What the patient payment page needs to start a card payment: never the secret or the token. */
export const PaymentClientSettings = type({
  businessId: 'string',
  provider: "'judo' | null",
  contactNumber: 'string',
  legalInfo: 'string',
  judoId: 'string | null',
  sandbox: 'boolean',
  showVisa: 'boolean',
  showAmex: 'boolean',
  showMastercard: 'boolean',
});
export type PaymentClientSettings = typeof PaymentClientSettings.infer;

const BusinessId = type({ businessId: Id });

const PaymentSettingsResult = type({
  /** null until the business's payment settings are first saved. */
  settings: PaymentSettings.or('null'),
  archived: 'boolean',
});

export const paymentSettings = defineArea({
  getPaymentSettings: {
    input: BusinessId,
    output: PaymentSettingsResult,
    access: staff({ business: 'businessId' }, true),
    summary: "A business's payment settings, the card provider's secret and token masked.",
  },
  updatePaymentSettings: {
    input: PaymentSettings,
    output: PaymentSettingsResult.merge({
      /** The fields that changed, as the audit log records them. */
      changedFields: 'string[]',
    }),
    access: staff({ business: 'businessId' }, true),
    summary:
      'Saves payment settings: contact number and legal info required; with the card provider its id, secret and token (8+ characters). A masked secret or token keeps the stored one.',
  },
  deletePaymentSettings: {
    input: BusinessId,
    output: Ok,
    access: staff({ business: 'businessId' }, true),
    summary: "Removes a business's payment settings (card payments stop).",
  },
  getPaymentClientSettings: {
    input: BusinessId,
    output: type({ settings: PaymentClientSettings.or('null') }),
    access: staff({ business: 'businessId' }),
    summary: 'What a payment page needs (provider id, sandbox, card toggles, contact): never a secret.',
  },
});
