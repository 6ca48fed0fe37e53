import {
  AppError,
  type Contract,
  isMaskedSecret,
  type OutputOf,
  type ParsedInputOf,
  type PaymentClientSettings,
  type PaymentSettings,
} from '@medlocker/core';
import type { StaffActor } from '../../actor.ts';
import { audit } from '../../audit/audit.ts';
import type { AppDeps } from '../../deps.ts';
import { createSecretBox, maskSecret, type SecretBox } from '../../secrets/secret-box.ts';
import { changedPaths, requireBusiness, requireEditableBusiness } from '../business-settings/index.ts';
import {
  type Db,
  deletePaymentSettingsRow,
  findPaymentSettings,
  NO_PROVIDER,
  type PaymentSettingsRow,
  upsertPaymentSettings,
} from './repository.ts';

type Area = Contract['paymentSettings'];
type In<M extends keyof Area> = ParsedInputOf<Area[M]>;
type Out<M extends keyof Area> = Promise<OutputOf<Area[M]>>;

// Associated data of each sealed column: a value copied to another business or column does not open.
const tokenContext = (businessId: string) => `payment_settings.judo_token:${businessId}`;
const secretContext = (businessId: string) => `payment_settings.judo_secret:${businessId}`;

const boxOf = (deps: AppDeps): SecretBox => createSecretBox(deps.config.secretsKey);

/** The stored settings with the secret and token opened: for the payment adapter, never for a response. */
export async function readPaymentSettings(db: Db, box: SecretBox, businessId: string): Promise<PaymentSettings | null> {
  const row = await findPaymentSettings(db, businessId);
  return row ? toSettings(row, (sealed, context) => box.open(sealed, context)) : null;
}

function toSettings(row: PaymentSettingsRow, reveal: (sealed: string, context: string) => string): PaymentSettings {
  const judo = row.provider === 'judo';
  return {
    businessId: row.business_id,
    contactNumber: row.contact_number,
    legalInfo: row.legal_info,
    provider: judo ? 'judo' : null,
    judo: judo
      ? {
          id: row.judo_id ?? '',
          sandbox: row.judo_sandbox,
          token: row.judo_token_encrypted ? reveal(row.judo_token_encrypted, tokenContext(row.business_id)) : '',
          secret: row.judo_secret_encrypted ? reveal(row.judo_secret_encrypted, secretContext(row.business_id)) : '',
          showVisa: row.judo_show_visa,
          showAmex: row.judo_show_amex,
          showMastercard: row.judo_show_mastercard,
        }
      : null,
  };
}

/** As a response shows it: secret and token masked. */
function masked(settings: PaymentSettings): PaymentSettings {
  if (!settings.judo) return settings;
  return {
    ...settings,
    judo: { ...settings.judo, secret: maskSecret(settings.judo.secret), token: maskSecret(settings.judo.token) },
  };
}

export async function getPaymentSettings(
  deps: AppDeps,
  _actor: StaffActor,
  input: In<'getPaymentSettings'>,
): Out<'getPaymentSettings'> {
  const business = await requireBusiness(deps.db, input.businessId);
  const settings = await readPaymentSettings(deps.db, boxOf(deps), input.businessId);
  return { settings: settings && masked(settings), archived: business.archived_at !== null };
}

/** A masked value keeps the stored one; without a stored one it is a mistake, not a secret. */
function keepOrNew(sent: string, stored: string | undefined, path: string): string {
  if (!isMaskedSecret(sent)) return sent;
  if (stored === undefined || stored === '') {
    throw new AppError('VALIDATION', 'Please enter the value: there is no stored one to keep', [
      { path, id: 'REQUIRED', message: 'Please enter a value' },
    ]);
  }
  return stored;
}

export async function updatePaymentSettings(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'updatePaymentSettings'>,
): Out<'updatePaymentSettings'> {
  const box = boxOf(deps);
  const now = deps.now();
  return deps.db.transaction().execute(async (tx) => {
    await requireEditableBusiness(tx, input.businessId);
    const before = await readPaymentSettings(tx, box, input.businessId);
    const next: PaymentSettings = {
      businessId: input.businessId,
      contactNumber: input.contactNumber.trim(),
      legalInfo: input.legalInfo.trim(),
      provider: input.provider,
      judo:
        input.provider === 'judo' && input.judo
          ? {
              ...input.judo,
              id: input.judo.id.trim(),
              token: keepOrNew(input.judo.token, before?.judo?.token, 'judo.token'),
              secret: keepOrNew(input.judo.secret, before?.judo?.secret, 'judo.secret'),
            }
          : null,
    };
    await upsertPaymentSettings(tx, {
      business_id: next.businessId,
      contact_number: next.contactNumber,
      legal_info: next.legalInfo,
      provider: next.provider ?? NO_PROVIDER,
      judo_id: next.judo?.id ?? null,
      judo_sandbox: next.judo?.sandbox ?? false,
      judo_token_encrypted: next.judo ? box.seal(next.judo.token, tokenContext(next.businessId)) : null,
      judo_secret_encrypted: next.judo ? box.seal(next.judo.secret, secretContext(next.businessId)) : null,
      judo_show_visa: next.judo?.showVisa ?? true,
      judo_show_amex: next.judo?.showAmex ?? true,
      judo_show_mastercard: next.judo?.showMastercard ?? true,
      created: now,
      updated: now,
    });
    // Compared in the clear inside the transaction; only the names of the fields leave it.
    const changedFields = changedPaths(before ?? {}, next).filter((p) => p !== 'businessId');
    if (changedFields.length > 0) {
      await audit(tx, deps, actor, {
        action: before ? 'paymentSettings.update' : 'paymentSettings.create',
        entityType: 'business',
        entityId: input.businessId,
        businessId: input.businessId,
        details: { fields: changedFields },
      });
    }
    return { settings: masked(next), archived: false, changedFields };
  });
}

export async function deletePaymentSettings(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'deletePaymentSettings'>,
): Out<'deletePaymentSettings'> {
  await deps.db.transaction().execute(async (tx) => {
    await requireEditableBusiness(tx, input.businessId);
    if (!(await deletePaymentSettingsRow(tx, input.businessId))) {
      throw new AppError('NOT_FOUND', `Business ${input.businessId} has no payment settings`);
    }
    await audit(tx, deps, actor, {
      action: 'paymentSettings.delete',
      entityType: 'business',
      entityId: input.businessId,
      businessId: input.businessId,
    });
  });
  return { ok: true };
}

export async function getPaymentClientSettings(
  deps: AppDeps,
  _actor: StaffActor,
  input: In<'getPaymentClientSettings'>,
): Out<'getPaymentClientSettings'> {
  await requireBusiness(deps.db, input.businessId);
  const row = await findPaymentSettings(deps.db, input.businessId);
  if (!row) return { settings: null };
  // Built from the row's plain columns: the sealed ones are never even opened here.
  const judo = row.provider === 'judo';
  const settings: PaymentClientSettings = {
    businessId: row.business_id,
    provider: judo ? 'judo' : null,
    contactNumber: row.contact_number,
    legalInfo: row.legal_info,
    judoId: judo ? row.judo_id : null,
    sandbox: row.judo_sandbox,
    showVisa: row.judo_show_visa,
    showAmex: row.judo_show_amex,
    showMastercard: row.judo_show_mastercard,
  };
  return { settings };
}
