import { AppError, validationMessages } from '@medlocker/core';
import { refuseDuplicate } from '@medlocker/db';
import { audit } from '../../audit/audit.ts';
import type { StaffActor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import type { In, Out, Service } from '../../context/method.ts';
import { isMasked } from '../../secrets/secret-box.ts';
import {
  callbackPath,
  checkOidc,
  checkProviderUrl,
  checkSamlMetadata,
  providerPolicy,
  refusedProviderUrl,
  type StoredConfiguration,
  samlAcsPath,
  samlSpMetadata,
  sealClientSecret,
  storedConfiguration,
} from '../sso/index.ts';
import {
  businessExists,
  deleteIdentityProvider,
  findIdentityProviderRow,
  getIdentityProvider,
  groupExists,
  insertIdentityProvider,
  listIdentityProviders,
  toIdentityProvider,
  updateIdentityProvider,
} from './repository.ts';

const notFound = () => new AppError('NOT_FOUND', 'No such identity provider');
const fieldError = (path: string, message: string) =>
  new AppError('VALIDATION', message, [{ path, id: 'INVALID_VALUE', message }]);

/**
 * Every required field left empty, refused at once (SPEC §8 REQUIRED), so the form flags them all
 * together rather than one per try. Nothing when all are given.
 */
function refuseEmpty(fields: Record<string, string>): void {
  const empty = Object.entries(fields).filter(([, value]) => value === '');
  if (empty.length === 0) return;
  const message = validationMessages.REQUIRED;
  throw new AppError(
    'VALIDATION',
    message,
    empty.map(([path]) => ({ path, id: 'REQUIRED', message })),
  );
}

export const list: Service<'identityProviders/list'> = async (deps, _actor, _input) => {
  return { identityProviders: await listIdentityProviders(deps.db) };
};

/**
 * One provider, with the full URL to register at it (PUBLIC_URL's, else the address the console was
 * opened at: the URL a provider is given must be absolute).
 */
export async function get(
  deps: AppDeps,
  _actor: StaffActor,
  input: In<'identityProviders/get'>,
  requestOrigin = '',
): Out<'identityProviders/get'> {
  const idp = await getIdentityProvider(deps.db, input.id);
  if (!idp) throw notFound();
  const origin = (deps.config.publicUrls[0] ?? requestOrigin).replace(/\/+$/, '');
  if (idp.type === 'SAML')
    return { ...idp, callbackUrl: `${origin}${samlAcsPath(idp.id)}`, spMetadata: samlSpMetadata(origin, idp.id) };
  return { ...idp, callbackUrl: `${origin}${callbackPath}`, spMetadata: null };
}

const trim = (v: string | undefined) => (v ?? '').trim();

/** The business or the group a provider is for: one at most, and one that exists. */
async function checkOwner(deps: AppDeps, input: In<'identityProviders/create'>): Promise<void> {
  if (input.businessId && input.groupId)
    throw fieldError('groupId', 'A provider is for one business or one group, not both');
  if (input.businessId) {
    if (!(await businessExists(deps.db, input.businessId))) throw fieldError('businessId', 'No such business');
  }
  if (input.groupId) {
    if (!(await groupExists(deps.db, input.groupId))) throw fieldError('groupId', 'No such group');
  }
}

/** A web address the browser is sent to: http(s), and https in production. */
function checkUrl(deps: AppDeps, path: string, value: string, required: boolean): void {
  if (!value) {
    if (required) refuseEmpty({ [path]: value });
    return;
  }
  if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol))
    throw fieldError(path, 'Must be a web address (https://…)');
  if (deps.config.production && new URL(value).protocol !== 'https:')
    throw fieldError(path, 'Must start with https://');
}

/** A URL the server fetches (issuer, metadata): https to a public address only (sso/provider-fetch.ts). */
async function checkFetchedUrl(deps: AppDeps, path: string, value: string, required: boolean): Promise<void> {
  checkUrl(deps, path, value, required);
  if (!value) return;
  const policy = providerPolicy(deps.config);
  const wrong = refusedProviderUrl(value, policy);
  if (wrong) throw fieldError(path, wrong);
  // A name that does not resolve yet is let through: it is checked again at every fetch.
  await checkProviderUrl(value, policy, { unresolved: 'allow' }).catch((error: unknown) => {
    throw fieldError(path, error instanceof Error ? error.message : String(error));
  });
}

/** Checks the input as a whole and gives the configuration to store (the secret sealed under `id`). */
async function configurationOf(
  deps: AppDeps,
  id: string,
  input: In<'identityProviders/create'>,
  previous: StoredConfiguration | null,
): Promise<StoredConfiguration> {
  const c = input.configuration;
  await checkOwner(deps, input);
  const claims = {
    email: trim(c.claims?.email),
    emailVerified: trim(c.claims?.emailVerified),
    givenName: trim(c.claims?.givenName),
    familyName: trim(c.claims?.familyName),
  };
  return input.type === 'OIDC' ? oidcConfiguration(deps, id, c, previous, claims) : samlConfiguration(deps, c, claims);
}

type Given = In<'identityProviders/create'>['configuration'];

/** An OIDC provider's: issuer and client id required; a masked or empty secret keeps the stored one. */
async function oidcConfiguration(
  deps: AppDeps,
  id: string,
  c: Given,
  previous: StoredConfiguration | null,
  claims: StoredConfiguration['claims'],
): Promise<StoredConfiguration> {
  refuseEmpty({ 'configuration.issuerUrl': trim(c.issuerUrl), 'configuration.clientId': trim(c.clientId) });
  await checkFetchedUrl(deps, 'configuration.issuerUrl', trim(c.issuerUrl), true);
  const typed = c.clientSecret ?? '';
  const keep = typed === '' || isMasked(typed);
  return {
    clientId: trim(c.clientId),
    clientSecretSealed: keep ? (previous?.clientSecretSealed ?? '') : sealClientSecret(deps, id, typed),
    issuerUrl: trim(c.issuerUrl).replace(/\/$/, ''),
    scopes: trim(c.scopes),
    metadataUrl: '',
    metadataXml: '',
    entityId: '',
    ssoUrl: '',
    certificate: '',
    claims,
  };
}

/** A SAML provider's: its metadata (by URL or as XML), or its sign-in URL and certificate. */
async function samlConfiguration(
  deps: AppDeps,
  c: Given,
  claims: StoredConfiguration['claims'],
): Promise<StoredConfiguration> {
  await checkFetchedUrl(deps, 'configuration.metadataUrl', trim(c.metadataUrl), false);
  checkUrl(deps, 'configuration.ssoUrl', trim(c.ssoUrl), false);
  if (!trim(c.metadataUrl) && !trim(c.metadataXml) && !(trim(c.ssoUrl) && trim(c.certificate)))
    throw fieldError(
      'configuration.metadataUrl',
      'Give the metadata URL, the metadata XML, or the sign-in URL and certificate',
    );
  return {
    clientId: '',
    clientSecretSealed: '',
    issuerUrl: '',
    scopes: '',
    metadataUrl: trim(c.metadataUrl),
    metadataXml: trim(c.metadataXml),
    entityId: trim(c.entityId),
    ssoUrl: trim(c.ssoUrl),
    certificate: trim(c.certificate),
    claims,
  };
}

const nameTaken = () => fieldError('name', 'An identity provider with this name already exists');

export const create: Service<'identityProviders/create'> = async (deps, actor, input) => {
  const id = Bun.randomUUIDv7();
  const now = deps.now();
  const configuration = await configurationOf(deps, id, input, null);
  return refuseDuplicate(nameTaken, async () => {
    const row = await insertIdentityProvider(
      deps.db,
      id,
      input.type,
      {
        name: input.name.trim(),
        businessId: input.businessId ?? null,
        groupId: input.groupId ?? null,
        configuration: JSON.stringify(configuration),
      },
      now,
    );
    await audit(deps.db, deps, actor, {
      action: 'identityProvider.create',
      entityType: 'identity_provider',
      entityId: id,
      details: { name: row.name, type: row.type },
    });
    return toIdentityProvider(row);
  });
};

export const update: Service<'identityProviders/update'> = async (deps, actor, input) => {
  const existing = await findIdentityProviderRow(deps.db, input.id);
  if (!existing) throw notFound();
  if (existing.type !== input.type) throw fieldError('type', "A provider's type cannot change: add a new provider");
  const previous = storedConfiguration(existing);
  const configuration = await configurationOf(deps, existing.id, input, {
    ...previous,
    // A secret kept in clear by an older row is sealed on its first save.
    clientSecretSealed: previous.clientSecretSealed || sealClientSecret(deps, existing.id, previous.legacyClientSecret),
  });
  return refuseDuplicate(nameTaken, async () => {
    const row = await updateIdentityProvider(
      deps.db,
      existing.id,
      {
        name: input.name.trim(),
        businessId: input.businessId ?? null,
        groupId: input.groupId ?? null,
        configuration: JSON.stringify(configuration),
      },
      Math.max(deps.now(), existing.updated + 1),
    );
    await audit(deps.db, deps, actor, {
      action: 'identityProvider.update',
      entityType: 'identity_provider',
      entityId: row.id,
      details: { name: row.name, secretChanged: configuration.clientSecretSealed !== previous.clientSecretSealed },
    });
    return toIdentityProvider(row);
  });
};

export const remove: Service<'identityProviders/delete'> = async (deps, actor, input) => {
  const row = await deleteIdentityProvider(deps.db, input.id);
  if (!row) throw notFound();
  await audit(deps.db, deps, actor, {
    action: 'identityProvider.delete',
    entityType: 'identity_provider',
    entityId: row.id,
    details: { name: row.name },
  });
  return { ok: true };
};

export const test: Service<'identityProviders/test'> = async (deps, _actor, input) => {
  const row = await findIdentityProviderRow(deps.db, input.id);
  if (!row) throw notFound();
  const checks =
    row.type === 'OIDC'
      ? await checkOidc(deps, row)
      : await checkSamlMetadata(storedConfiguration(row), providerPolicy(deps.config), deps);
  if (deps.config.production && !deps.config.publicUrls[0])
    checks.push({ check: 'Public URL', ok: false, message: 'PUBLIC_URL is not set: the redirect URI cannot be known' });
  return { ok: checks.every((c) => c.ok), checks };
};
