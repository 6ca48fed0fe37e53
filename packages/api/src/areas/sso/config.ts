import type { JsonValue } from '@medlocker/db';
import type { AppDeps } from '../../context/deps.ts';
import { sealingContexts } from '../../secrets/sealed-columns.ts';
import { createSecretBox } from '../../secrets/secret-box.ts';

/** An identity provider as stored, its configuration unread (`storedConfiguration` reads it). */
export type ProviderRecord = {
  id: string;
  name: string;
  type: 'OIDC' | 'SAML';
  configuration: JsonValue;
  created: number;
  updated: number;
  /** The business, or the group, whose users it signs in; both null: anyone's it is given to. */
  businessId: string | null;
  groupId: string | null;
};

/** Claim names as stored; empty means the standard name. */
export type StoredClaims = { email: string; emailVerified: string; givenName: string; familyName: string };

/** A provider's configuration as kept in `identity_providers.configuration` (jsonb). */
export type StoredConfiguration = {
  clientId: string;
  /** Sealed with SECRETS_KEY, bound to the provider's id; '' when none. */
  clientSecretSealed: string;
  issuerUrl: string;
  scopes: string;
  metadataUrl: string;
  metadataXml: string;
  entityId: string;
  ssoUrl: string;
  certificate: string;
  claims: StoredClaims;
};

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** Reads a row's configuration, whatever older rows hold (0001 kept `clientSecret` in clear). */
export function storedConfiguration(row: Pick<ProviderRecord, 'configuration'>): StoredConfiguration & {
  legacyClientSecret: string;
} {
  const c = (row.configuration ?? {}) as Record<string, unknown>;
  const claims = (c.claims ?? {}) as Record<string, unknown>;
  return {
    clientId: text(c.clientId),
    clientSecretSealed: text(c.clientSecretSealed),
    legacyClientSecret: text(c.clientSecret),
    issuerUrl: text(c.issuerUrl),
    scopes: text(c.scopes),
    metadataUrl: text(c.metadataUrl),
    metadataXml: text(c.metadataXml),
    entityId: text(c.entityId),
    ssoUrl: text(c.ssoUrl),
    certificate: text(c.certificate),
    claims: {
      email: text(claims.email),
      emailVerified: text(claims.emailVerified),
      givenName: text(claims.givenName),
      familyName: text(claims.familyName),
    },
  };
}

/** Where a provider's client secret is sealed: bound to its id, so a copied value does not open elsewhere. */
export const secretContext = sealingContexts.identityProviderSecret;

export function sealClientSecret(deps: Pick<AppDeps, 'config'>, idpId: string, secret: string): string {
  return secret === '' ? '' : createSecretBox(deps.config.secretsKey).seal(secret, secretContext(idpId));
}

/** The provider's client secret in clear, for the token request only; '' when it has none. */
export function clientSecretOf(deps: Pick<AppDeps, 'config'>, row: ProviderRecord): string {
  const c = storedConfiguration(row);
  if (c.clientSecretSealed)
    return createSecretBox(deps.config.secretsKey).open(c.clientSecretSealed, secretContext(row.id));
  return c.legacyClientSecret;
}

export const defaultScopes = 'openid email profile';

/** The scopes asked for: always with `openid`. */
export function scopesOf(configured: string): string {
  const list = configured.split(/[\s,]+/).filter(Boolean);
  if (list.length === 0) return defaultScopes;
  return list.includes('openid') ? list.join(' ') : ['openid', ...list].join(' ');
}
