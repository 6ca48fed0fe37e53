import { AppError, isMaskedSecret, type PaymentClientSettings, type PaymentSettings } from '@medlocker/core';
import { audit } from '../../audit/audit.ts';
import type { AppDeps } from '../../context/deps.ts';
import type { Service } from '../../context/method.ts';
import { sealingContexts } from '../../secrets/sealed-columns.ts';
import { createSecretBox, maskSecret, type SecretBox } from '../../secrets/secret-box.ts';
import {
  changedPaths,
  inEditableBusiness,
  requireBusiness,
  requireEditableBusiness,
} from '../business-settings/index.ts';
import {
  type Db,
  deletePaymentSettingsRow,
  findPaymentSettings,
  type StoredPaymentSettings,
  upsertPaymentSettings,
} from './repository.ts';

// Associated data of each sealed column: a value copied to another business or column does not open.
const tokenContext = sealingContexts.paymentToken;
const secretContext = sealingContexts.paymentSecret;

const boxOf = (deps: AppDeps): SecretBox => createSecretBox(deps.config.secretsKey);

/** The stored settings with the secret and token opened: for the payment adapter, never for a response. */
export async function readPaymentSettings(db: Db, box: SecretBox, businessId: string): Promise<PaymentSettings | null> {
  const stored = await findPaymentSettings(db, businessId);
  return stored ? opened(stored, box) : null;
}

/** The stored settings with the token and secret opened. */
function opened(stored: StoredPaymentSettings, box: SecretBox): PaymentSettings {
  const { businessId, contactNumber, legalInfo, provider, sealedToken, sealedSecret } = stored;
  return {
    businessId,
    contactNumber,
    legalInfo,
    provider,
    judo:
      provider === 'judo'
        ? {
            id: stored.judoId ?? '',
            sandbox: stored.sandbox,
            token: sealedToken ? box.open(sealedToken, tokenContext(businessId)) : '',
            secret: sealedSecret ? box.open(sealedSecret, secretContext(businessId)) : '',
            showVisa: stored.showVisa,
            showAmex: stored.showAmex,
            showMastercard: stored.showMastercard,
          }
        : null,
  };
}

/** The settings to store, the token and secret sealed. */
export function sealed(settings: PaymentSettings, box: SecretBox): StoredPaymentSettings {
  const { businessId, contactNumber, legalInfo, provider, judo } = settings;
  return {
    businessId,
    contactNumber,
    legalInfo,
    provider,
    judoId: judo?.id ?? null,
    sandbox: judo?.sandbox ?? false,
    sealedToken: judo ? box.seal(judo.token, tokenContext(businessId)) : null,
    sealedSecret: judo ? box.seal(judo.secret, secretContext(businessId)) : null,
    showVisa: judo?.showVisa ?? true,
    showAmex: judo?.showAmex ?? true,
    showMastercard: judo?.showMastercard ?? true,
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

export const getPaymentSettings: Service<'paymentSettings/getPaymentSettings'> = async (deps, _actor, input) => {
  const business = await requireBusiness(deps.db, input.businessId);
  const settings = await readPaymentSettings(deps.db, boxOf(deps), input.businessId);
  return { settings: settings && masked(settings), archived: business.archived };
};

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

export const updatePaymentSettings: Service<'paymentSettings/updatePaymentSettings'> = async (deps, actor, input) => {
  const box = boxOf(deps);
  return inEditableBusiness(deps, input.businessId, async (tx, now) => {
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
    await upsertPaymentSettings(tx, sealed(next, box), now);
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
};

export const deletePaymentSettings: Service<'paymentSettings/deletePaymentSettings'> = async (deps, actor, input) => {
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
};

export const getPaymentClientSettings: Service<'paymentSettings/getPaymentClientSettings'> = async (
  deps,
  _actor,
  input,
) => {
  await requireBusiness(deps.db, input.businessId);
  const stored = await findPaymentSettings(deps.db, input.businessId);
  if (!stored) return { settings: null };
  // Built from the plain settings: the sealed token and secret are never even opened here.
  const { businessId, provider, contactNumber, legalInfo, judoId, sandbox, showVisa, showAmex, showMastercard } =
    stored;
  const settings: PaymentClientSettings = {
    businessId,
    provider,
    contactNumber,
    legalInfo,
    judoId: provider === 'judo' ? judoId : null,
    sandbox,
    showVisa,
    showAmex,
    showMastercard,
  };
  return { settings };
};
