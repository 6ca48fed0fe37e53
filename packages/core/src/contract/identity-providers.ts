import { type } from 'arktype';
import { RequiredLine } from '../validation/general.ts';
import { Id, IdOrNull, stringLimits, upTo } from '../validation/string-limits.ts';
import { defineArea, supportOnly } from './define.ts';
import { byId, withoutInput } from './method-builders.ts';
import { Ok } from './ok.ts';

/*
 * Identity providers: OpenID Connect or SAML 2.0, global or tied to one business or group,
 * managed by support staff. The OIDC client secret is write-only: it is stored sealed and never sent
 * out (reads show `clientSecretSet`). The claim mapping names the ID token / userinfo claims (OIDC)
 * or assertion attributes (SAML) that carry the email and names; an empty mapping uses the standard
 * names (`email`, `email_verified`, `given_name`, `family_name`; SAML: the NameID as email).
 */

export const IdentityProviderType = type("'OIDC' | 'SAML'");
export type IdentityProviderType = typeof IdentityProviderType.infer;

/** Where the email and names are found in what the provider sends back. */
export const ClaimMapping = type({
  email: upTo(stringLimits.name),
  emailVerified: upTo(stringLimits.name),
  givenName: upTo(stringLimits.name),
  familyName: upTo(stringLimits.name),
});
export type ClaimMapping = typeof ClaimMapping.infer;

/** The biggest IdP metadata document or certificate accepted (Entra's metadata is ~25 KB). */
export const samlDocumentLimit = 200_000;

/** SPEC §3 Identity provider as the api shows it: the client secret is never sent out. */
export const IdentityProvider = type({
  id: 'string',
  name: 'string',
  type: IdentityProviderType,
  created: 'number',
  updated: 'number',
  /** Tied to this business, or this group; both null: a global provider. */
  businessId: 'string | null',
  groupId: 'string | null',
  configuration: type({
    /** OIDC */
    clientId: 'string',
    issuerUrl: 'string',
    scopes: 'string',
    clientSecretSet: 'boolean',
    /** SAML: the IdP's metadata (a URL to fetch, or the XML itself), entity id and signing certificate. */
    metadataUrl: 'string',
    metadataXml: 'string',
    entityId: 'string',
    ssoUrl: 'string',
    certificate: 'string',
    claims: ClaimMapping,
  }),
});
export type IdentityProvider = typeof IdentityProvider.infer;

/** What create and update take: everything but the ids and times; `clientSecret` '' on update keeps it. */
export const IdentityProviderInput = type({
  name: upTo(stringLimits.name, RequiredLine),
  type: IdentityProviderType,
  'businessId?': IdOrNull,
  'groupId?': IdOrNull,
  configuration: type({
    'clientId?': upTo(stringLimits.credential),
    'clientSecret?': upTo(stringLimits.credential),
    'issuerUrl?': upTo(stringLimits.url),
    'scopes?': upTo(stringLimits.freeText),
    'metadataUrl?': upTo(stringLimits.url),
    'metadataXml?': upTo(samlDocumentLimit),
    'entityId?': upTo(stringLimits.url),
    'ssoUrl?': upTo(stringLimits.url),
    'certificate?': upTo(samlDocumentLimit),
    'claims?': ClaimMapping.partial(),
  }),
});

/** One finding of `test`: what was checked and, when it failed, why in words. */
export const IdentityProviderCheck = type({ check: 'string', ok: 'boolean', message: 'string' });

export const identityProviders = defineArea({
  list: withoutInput({
    output: type({
      identityProviders: type({
        id: 'string',
        name: 'string',
        type: "'OIDC' | 'SAML'",
        businessId: 'string | null',
        groupId: 'string | null',
      }).array(),
    }),
    access: supportOnly,
    summary: 'Every identity provider, by name, for the Edit-identity-provider picker and the providers page.',
  }),
  get: byId({
    output: IdentityProvider.and({ callbackUrl: 'string', spMetadata: 'string | null' }),
    access: supportOnly,
    summary:
      'One identity provider, without its client secret; the redirect URI (OIDC) or our service-provider metadata (SAML) to register at it.',
  }),
  create: {
    input: IdentityProviderInput,
    output: IdentityProvider,
    access: supportOnly,
    summary: 'Adds an OIDC or SAML identity provider, global or for one business or group.',
  },
  update: {
    input: IdentityProviderInput.and({ id: Id }),
    output: IdentityProvider,
    access: supportOnly,
    summary: "Changes a provider; an empty or masked client secret keeps the stored one. Its type can't change.",
  },
  delete: byId({
    output: Ok,
    access: supportOnly,
    summary: 'Removes a provider; its users are left with none (and so sign in with a password reset).',
  }),
  test: byId({
    output: type({ ok: 'boolean', checks: IdentityProviderCheck.array() }),
    access: supportOnly,
    summary: "Runs OIDC discovery or reads the SAML metadata and says in words what's wrong.",
  }),
});
