export { approveCliSignIn, beginCliSignIn, pollCliSignIn } from './cli-sign-in.ts';
export {
  type ProviderRecord,
  type StoredConfiguration,
  sealClientSecret,
  storedConfiguration,
} from './config.ts';
export {
  beginSso,
  type CallbackOutcome,
  callbackPath,
  SSO_COOKIE,
  SSO_LOGIN_TTL_MS,
  samlCallback,
  samlContinue,
  samlContinuePath,
  ssoCallback,
} from './flow.ts';
export { checkOidc } from './oidc.ts';
export { checkProviderUrl, providerPolicy, refusedProviderUrl } from './provider-fetch.ts';
export { toProviderRecord } from './repository.ts';
export { samlAcsPath, samlSpMetadata } from './saml.ts';
export { checkSamlMetadata } from './saml-metadata.ts';
