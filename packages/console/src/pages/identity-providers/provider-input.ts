import { type IdentityProvider, validationMessages } from '@medlocker/core';
import { t } from './i18n/index.ts';

/* What the identity provider form holds and sends, apart from how it is shown (ProviderForm.tsx). */

export type Scope = 'global' | 'business' | 'group';

/** The connection's settings as typed (the client secret is never shown: empty keeps the stored one). */
export type Connection = Record<
  | 'issuerUrl'
  | 'clientId'
  | 'clientSecret'
  | 'scopes'
  | 'metadataUrl'
  | 'metadataXml'
  | 'entityId'
  | 'emailClaim'
  | 'emailVerifiedClaim',
  string
>;

export const connectionOf = (c: IdentityProvider['configuration'] | undefined): Connection => ({
  issuerUrl: c?.issuerUrl ?? '',
  clientId: c?.clientId ?? '',
  clientSecret: '',
  scopes: c?.scopes ?? '',
  metadataUrl: c?.metadataUrl ?? '',
  metadataXml: c?.metadataXml ?? '',
  entityId: c?.entityId ?? '',
  emailClaim: c?.claims.email ?? '',
  emailVerifiedClaim: c?.claims.emailVerified ?? '',
});

/** What create and update send: the connection's fields of the provider's kind only. */
export function providerInput(
  name: string,
  kind: 'OIDC' | 'SAML',
  owner: { scope: 'business' | 'group'; id: string | null } | null,
  c: Connection,
) {
  return {
    name,
    type: kind,
    businessId: owner?.scope === 'business' ? owner.id : null,
    groupId: owner?.scope === 'group' ? owner.id : null,
    configuration:
      kind === 'OIDC'
        ? {
            issuerUrl: c.issuerUrl,
            clientId: c.clientId,
            clientSecret: c.clientSecret,
            scopes: c.scopes,
            claims: { email: c.emailClaim, emailVerified: c.emailVerifiedClaim },
          }
        : {
            metadataUrl: c.metadataUrl,
            metadataXml: c.metadataXml,
            entityId: c.entityId,
            claims: { email: c.emailClaim },
          },
  };
}

/**
 * The required fields left empty, each with its message, flagged together before anything is sent:
 * the server refuses an empty name by its schema before it looks at the rest, which flagged one field
 * per try.
 */
export function emptyRequired(name: string, kind: 'OIDC' | 'SAML', c: Connection): Record<string, string> {
  const empty: Record<string, string> = {};
  const required = validationMessages.REQUIRED;
  if (!name.trim()) empty.name = required;
  if (kind === 'OIDC') {
    if (!c.issuerUrl.trim()) empty['configuration.issuerUrl'] = required;
    if (!c.clientId.trim()) empty['configuration.clientId'] = required;
  } else if (!c.metadataUrl.trim() && !c.metadataXml.trim()) {
    empty['configuration.metadataUrl'] = t('identityProviders.form.metadataRequired');
  }
  return empty;
}
