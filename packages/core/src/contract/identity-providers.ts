import { type } from 'arktype';
import { Id } from '../validation/string-limits.ts';
import { defineArea, supportOnly } from './define.ts';

/** SPEC §3 Identity provider as the api shows it: the client secret is never sent out. */
export const IdentityProvider = type({
  id: 'string',
  name: 'string',
  type: "'OIDC' | 'SAML'",
  created: 'number',
  updated: 'number',
  configuration: type({ clientId: 'string', issuerUrl: 'string' }),
});
export type IdentityProvider = typeof IdentityProvider.infer;

export const identityProviders = defineArea({
  list: {
    input: type({}),
    output: type({ identityProviders: type({ id: 'string', name: 'string' }).array() }),
    access: supportOnly,
    summary: 'Every identity provider, by name, for the Edit-identity-provider picker.',
  },
  get: {
    input: type({ id: Id }),
    output: IdentityProvider,
    access: supportOnly,
    summary: 'One identity provider, without its client secret.',
  },
});
