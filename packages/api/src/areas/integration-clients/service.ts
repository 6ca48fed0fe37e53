import { AppError, isMaskedSecret } from '@medlocker/core';
import { refuseDuplicate } from '@medlocker/db';
import { audit } from '../../audit/audit.ts';
import type { StaffActor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import type { Service } from '../../context/method.ts';
import { openSealedWebhookSecret, sealWebhookSecret } from '../../delivery/webhooks/secrets.ts';
import { maskSecret, newSecret, newWebhookSecret, secretHint } from '../../secrets/secret-box.ts';
import { hashToken } from '../../sessions/tokens.ts';
import { checkTarget, RefusedTarget } from '../../ssrf/ssrf.ts';
import {
  changedPaths,
  inEditableBusiness,
  requireBusiness,
  requireEditableBusiness,
} from '../business-settings/index.ts';
import {
  type ClientSettings,
  clientsOfPartner,
  type Db,
  deleteClient,
  deletePartner,
  deleteTokensOfClient,
  findClient,
  findClientOfBusiness,
  findPartner,
  type IntegrationClient,
  insertClient,
  insertPartner,
  listPartners,
  rotateWebhookSecret,
  setClientSecret,
  toClientView,
  updateClientSettings,
  updatePartner,
} from './repository.ts';

/** The webhook signing secret in the clear: for the webhook sender, never for a response. */
export function openWebhookSecret(deps: Pick<AppDeps, 'config'>, client: IntegrationClient): string | null {
  if (!client.webhookSecretSealed) return null;
  return openSealedWebhookSecret(deps, client.id, client.webhookSecretSealed);
}

/** How long the previous webhook secret keeps signing beside a new one. */
export const WEBHOOK_SECRET_OVERLAP_MS = 24 * 3_600_000;

/**
 * The webhook URL's form and every address its host resolves to (webhooks/ssrf.ts): a field error on
 * `webhookUrl` when refused. The same check runs again at each send.
 */
async function refuseUnsafeWebhookUrl(deps: AppDeps, url: string | null) {
  if (url === null) return;
  try {
    await checkTarget(
      url,
      { production: deps.config.production, allowPrivateAddresses: deps.config.webhookAllowPrivateAddresses },
      { unresolved: 'allow' },
    );
  } catch (error) {
    if (!(error instanceof RefusedTarget)) throw error;
    throw new AppError('VALIDATION', error.message, [
      { path: 'webhookUrl', id: 'INVALID_FORMAT', message: error.message },
    ]);
  }
}

const view = (deps: AppDeps, client: IntegrationClient) => {
  const webhookSecret = openWebhookSecret(deps, client);
  return toClientView(client, webhookSecret === null ? null : maskSecret(webhookSecret));
};

async function requireClient(db: Db, id: string): Promise<IntegrationClient> {
  const client = await findClient(db, id);
  if (!client) throw new AppError('NOT_FOUND', `Integration client ${id} not found`);
  return client;
}

/** Secrets are generated, never typed in: anything but the masked form (or nothing) is refused. */
function refuseChosenSecret(value: string | undefined, path: string) {
  if (value !== undefined && value !== '' && !isMaskedSecret(value)) {
    throw new AppError('VALIDATION', 'Secrets cannot be chosen: generate a new one instead', [
      { path, id: 'INVALID_FORMAT', message: 'Secrets cannot be chosen: generate a new one instead' },
    ]);
  }
}

export const getIntegrationClient: Service<'integration/getIntegrationClient'> = async (deps, _actor, input) => {
  const business = await requireBusiness(deps.db, input.businessId);
  const row = await findClientOfBusiness(deps.db, input.businessId);
  return { client: row ? view(deps, row) : null, archived: business.archived };
};

export const createOrUpdateIntegrationClient: Service<'integration/createOrUpdateIntegrationClient'> = async (
  deps,
  actor,
  input,
) => {
  refuseChosenSecret(input.secret, 'secret');
  refuseChosenSecret(input.webhookSecret, 'webhookSecret');
  await refuseUnsafeWebhookUrl(deps, input.webhookUrl);
  return inEditableBusiness(deps, input.businessId, async (tx, now) => {
    if (input.partnerId && !(await findPartner(tx, input.partnerId))) {
      throw new AppError('VALIDATION', 'Unknown integration partner', [
        { path: 'partnerId', id: 'INVALID_FORMAT', message: 'Choose one of the known integration partners' },
      ]);
    }
    const settings: ClientSettings = {
      partnerId: input.partnerId ?? null,
      name: input.name.trim(),
      contactEmail: input.contactEmail,
      suppressPatientMessages: input.suppressPatientMessages,
      webhookUrl: input.webhookUrl,
      rateLimit: input.rateLimit,
    };
    const existing = await findClientOfBusiness(tx, input.businessId);
    if (existing) {
      await updateClientSettings(tx, existing.id, settings, now);
      const changed = changedPaths(editable(existing), settings);
      if (changed.length > 0) {
        await auditClient(tx, deps, actor, 'update', existing, changed);
      }
      return { client: view(deps, await requireClient(tx, existing.id)), webhookSecret: null };
    }
    const id = Bun.randomUUIDv7();
    const webhookSecret = newWebhookSecret();
    const client = await insertClient(tx, {
      id,
      businessId: input.businessId,
      settings,
      webhookSecretSealed: sealWebhookSecret(deps, id, webhookSecret),
      now,
    });
    await auditClient(tx, deps, actor, 'create', client, [...Object.keys(settings), 'webhookSecret']);
    return { client: view(deps, client), webhookSecret };
  });
};

/** Audits `integrationClient.<what>` on a business's client, naming the fields it changed when it has any. */
const auditClient = (
  tx: Db,
  deps: AppDeps,
  actor: StaffActor,
  what: string,
  client: { id: string; businessId: string },
  fields?: string[],
) =>
  audit(tx, deps, actor, {
    action: `integrationClient.${what}`,
    entityType: 'integrationClient',
    entityId: client.id,
    businessId: client.businessId,
    ...(fields && { details: { fields } }),
  });

/** The fields the form edits, as the contract names them: what an audit entry lists. */
const editable = (c: IntegrationClient): ClientSettings => ({
  partnerId: c.partnerId,
  name: c.name,
  contactEmail: c.contactEmail,
  suppressPatientMessages: c.suppressPatientMessages,
  webhookUrl: c.webhookUrl,
  rateLimit: c.rateLimit,
});

export const deleteIntegrationClient: Service<'integration/deleteIntegrationClient'> = async (deps, actor, input) => {
  await deps.db.transaction().execute(async (tx) => {
    const client = await requireClient(tx, input.id);
    await requireEditableBusiness(tx, client.businessId);
    await deleteClient(tx, client.id);
    await auditClient(tx, deps, actor, 'delete', client);
  });
  return { ok: true };
};

export const generateClientSecret: Service<'integration/generateClientSecret'> = async (deps, actor, input) => {
  const secret = newSecret('mlc');
  await deps.db.transaction().execute(async (tx) => {
    const client = await requireClient(tx, input.id);
    await requireEditableBusiness(tx, client.businessId);
    // A 256-bit random secret: a fast hash is enough, nothing to guess (see sessions/tokens.ts).
    await setClientSecret(tx, client.id, { hash: hashToken(secret), hint: secretHint(secret) }, deps.now());
    // A new secret is given when the old one may have leaked: the bearer tokens it got stop at once too.
    await deleteTokensOfClient(tx, client.id);
    await auditClient(tx, deps, actor, 'secret.generate', client, ['secret']);
  });
  return { secret };
};

export const generateWebhookSecret: Service<'integration/generateWebhookSecret'> = async (deps, actor, input) => {
  const webhookSecret = newWebhookSecret();
  const now = deps.now();
  await deps.db.transaction().execute(async (tx) => {
    const found = await requireClient(tx, input.id);
    await requireEditableBusiness(tx, found.businessId);
    // Read again under the business's lock: a rotation at the same moment (a double click) has committed by
    // now, and its secret is the one this rotation keeps signing (read before, it was lost: never signing).
    const client = await requireClient(tx, input.id);
    // Rotation: the secret it replaces keeps signing beside it for 24 hours, while the receiver changes over.
    await rotateWebhookSecret(
      tx,
      client.id,
      {
        sealed: sealWebhookSecret(deps, client.id, webhookSecret),
        previousSealed: client.webhookSecretSealed,
        previousUntil: client.webhookSecretSealed ? now + WEBHOOK_SECRET_OVERLAP_MS : null,
      },
      now,
    );
    await auditClient(tx, deps, actor, 'webhookSecret.generate', client, ['webhookSecret']);
  });
  return { webhookSecret };
};

// --- known partners ----------------------------------------------------------------------------

/** Audits `integrationPartner.<what>`: partners belong to no business. */
const auditPartner = (tx: Db, deps: AppDeps, actor: StaffActor, what: string, id: string, fields?: string[]) =>
  audit(tx, deps, actor, {
    action: `integrationPartner.${what}`,
    entityType: 'integrationPartner',
    entityId: id,
    ...(fields && { details: { fields } }),
  });

const duplicatePartner = () =>
  new AppError('CONFLICT', 'A partner with that name already exists', [
    { path: 'name', id: 'DUPLICATE_ITEM', message: 'A partner with that name already exists' },
  ]);

export const listIntegrationPartners: Service<'integration/listIntegrationPartners'> = async (deps, _actor, _input) => {
  return { partners: await listPartners(deps.db) };
};

export const createIntegrationPartner: Service<'integration/createIntegrationPartner'> = async (deps, actor, input) => {
  const now = deps.now();
  return refuseDuplicate(duplicatePartner, async () => {
    return await deps.db.transaction().execute(async (tx) => {
      const partner = await insertPartner(tx, {
        id: Bun.randomUUIDv7(),
        name: input.name.trim(),
        contact_email: input.contactEmail,
        suppress_patient_messages: input.suppressPatientMessages,
        created: now,
        updated: now,
      });
      await auditPartner(tx, deps, actor, 'create', partner.id, ['name', 'contactEmail', 'suppressPatientMessages']);
      return { partner };
    });
  });
};

export const updateIntegrationPartner: Service<'integration/updateIntegrationPartner'> = async (deps, actor, input) => {
  return refuseDuplicate(duplicatePartner, async () => {
    return await deps.db.transaction().execute(async (tx) => {
      const before = await findPartner(tx, input.id);
      if (!before) throw new AppError('NOT_FOUND', `Integration partner ${input.id} not found`);
      const fields = {
        name: input.name.trim(),
        contactEmail: input.contactEmail,
        suppressPatientMessages: input.suppressPatientMessages,
      };
      await updatePartner(tx, input.id, {
        name: fields.name,
        contact_email: fields.contactEmail,
        suppress_patient_messages: fields.suppressPatientMessages,
        updated: deps.now(),
      });
      const changed = changedPaths(
        {
          name: before.name,
          contactEmail: before.contactEmail,
          suppressPatientMessages: before.suppressPatientMessages,
        },
        fields,
      );
      if (changed.length > 0) {
        await auditPartner(tx, deps, actor, 'update', input.id, changed);
      }
      const partner = await findPartner(tx, input.id);
      if (!partner) throw new AppError('NOT_FOUND', `Integration partner ${input.id} not found`);
      return { partner };
    });
  });
};

export const deleteIntegrationPartner: Service<'integration/deleteIntegrationPartner'> = async (deps, actor, input) => {
  await deps.db.transaction().execute(async (tx) => {
    const used = await clientsOfPartner(tx, input.id);
    if (used > 0) {
      throw new AppError('CONFLICT', `This partner is used by ${used} integration client${used === 1 ? '' : 's'}`);
    }
    if (!(await deletePartner(tx, input.id))) {
      throw new AppError('NOT_FOUND', `Integration partner ${input.id} not found`);
    }
    await auditPartner(tx, deps, actor, 'delete', input.id);
  });
  return { ok: true };
};
