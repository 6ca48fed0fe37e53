import { isUniqueViolation } from '@medlocker/db';
import { type CacheProvider, SAML } from '@node-saml/node-saml';
import type { AppDeps } from '../../context/deps.ts';
import { hashToken } from '../../sessions/tokens.ts';
import { type ProviderRecord, storedConfiguration } from './config.ts';
import { ProviderProblem } from './oidc.ts';
import { providerPolicy } from './provider-fetch.ts';
import { deleteAssertionsBefore, insertAssertion, markSsoLoginUsed, ssoLoginUsable } from './repository.ts';
import { readSamlMetadata } from './saml-metadata.ts';

/*
 * SAML 2.0 with @node-saml/node-saml v5: we send an AuthnRequest by HTTP-Redirect and take
 * the response by HTTP-POST at our assertion consumer service. Only signed responses with signed
 * assertions are accepted, InResponseTo must name a request we made (`validateInResponseTo: 'always'`,
 * its id kept in `sso_logins`, good once), the audience must be our entity id, times are checked with
 * one minute of clock skew, and an assertion id seen before (`sso_assertions`) is refused.
 */

export const samlAcsPath = (idpId: string) => `/sso/saml/${encodeURIComponent(idpId)}/acs`;
export const samlEntityId = (origin: string, idpId: string) => `${origin}/sso/saml/${encodeURIComponent(idpId)}`;
const REQUEST_TTL_MS = 10 * 60_000;
const key = (requestId: string) => hashToken(`saml:${requestId}`);

/** InResponseTo kept in `sso_logins`: saved at the request, taken (once) at the response. */
export function samlCache(deps: AppDeps, taken: { requestId: string | null }): CacheProvider & { saved: string[] } {
  const saved: string[] = [];
  return {
    saved,
    async saveAsync(requestId, value) {
      saved.push(requestId);
      return { value, createdAt: Date.now() };
    },
    async getAsync(requestId) {
      return (await ssoLoginUsable(deps.db, key(requestId), deps.now())) ? new Date().toISOString() : null;
    },
    async removeAsync(requestId) {
      if (!requestId) return null;
      const took = await markSsoLoginUsed(deps.db, key(requestId), deps.now());
      if (took) taken.requestId = requestId;
      return took ? requestId : null;
    },
  };
}

async function samlFor(
  deps: Pick<AppDeps, 'config' | 'db' | 'now'>,
  row: ProviderRecord,
  origin: string,
  cache: CacheProvider,
): Promise<SAML> {
  const c = storedConfiguration(row);
  const meta = await readSamlMetadata(c, providerPolicy(deps.config), deps);
  if ('problem' in meta) throw new ProviderProblem(meta.problem);
  if (!meta.ssoUrl) throw new ProviderProblem('The provider has no single sign-on URL');
  if (meta.certificates.length === 0) throw new ProviderProblem('The provider has no signing certificate');
  const entityId = samlEntityId(origin, row.id);
  return new SAML({
    entryPoint: meta.ssoUrl,
    // Every signing certificate the provider publishes: during its rollover, responses signed with either verify.
    idpCert: meta.certificates,
    idpIssuer: c.entityId || meta.entityId || undefined,
    issuer: entityId,
    audience: entityId,
    callbackUrl: `${origin}${samlAcsPath(row.id)}`,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: true,
    validateInResponseTo: 'always' as never,
    requestIdExpirationPeriodMs: REQUEST_TTL_MS,
    acceptedClockSkewMs: 60_000,
    cacheProvider: cache,
    identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
    disableRequestedAuthnContext: true,
  });
}

/** Our service-provider metadata for the provider's set-up (entity id, ACS URL). */
export function samlSpMetadata(origin: string, idpId: string): string {
  const saml = new SAML({
    idpCert: 'unused',
    issuer: samlEntityId(origin, idpId),
    callbackUrl: `${origin}${samlAcsPath(idpId)}`,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: true,
    identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
  });
  return saml.generateServiceProviderMetadata(null, null);
}

/** Starts a SAML sign-in: the provider's URL with a signed-for-us AuthnRequest; its id is kept. */
export async function startSaml(
  deps: AppDeps,
  row: ProviderRecord,
  origin: string,
): Promise<{ url: string; requestKey: string }> {
  const cache = samlCache(deps, { requestId: null });
  const saml = await samlFor(deps, row, origin, cache);
  const url = await saml.getAuthorizeUrlAsync('', undefined, {});
  const requestId = cache.saved[0];
  if (!requestId) throw new ProviderProblem('No request id was made');
  return { url, requestKey: key(requestId) };
}

export type SamlIdentity = {
  subject: string;
  email: string;
  assertionId: string;
  expires: number;
  /** The AuthnContextClassRef the provider asserted (how the person proved who they are there), if any. */
  authMethods: string[];
};

/** Checks a posted SAMLResponse; throws for anything refused. `requestKey` is the login row's key it used. */
export async function completeSaml(
  deps: AppDeps,
  row: ProviderRecord,
  origin: string,
  body: Record<string, string>,
): Promise<{ identity: SamlIdentity; requestKey: string | null }> {
  const taken = { requestId: null as string | null };
  const saml = await samlFor(deps, row, origin, samlCache(deps, taken));
  const { profile } = await saml.validatePostResponseAsync({ SAMLResponse: body.SAMLResponse ?? '' });
  if (!profile) throw new Error('No profile in the SAML response');
  const subject = typeof profile.nameID === 'string' ? profile.nameID.trim() : '';
  if (!subject) throw new Error('The SAML response names no subject (an empty NameID)');
  const assertionXml = profile.getAssertionXml?.() ?? '';
  const assertionId = /<(?:\w+:)?Assertion\b[^>]*\sID="([^"]+)"/.exec(assertionXml)?.[1] ?? '';
  const notOnOrAfter = /\sNotOnOrAfter="([^"]+)"/.exec(assertionXml)?.[1];
  const expires = notOnOrAfter ? Date.parse(notOnOrAfter) : Date.now() + 60 * 60_000;
  const mapping = storedConfiguration(row).claims;
  const attribute = mapping.email ? profile[mapping.email] : undefined;
  const email = typeof attribute === 'string' ? attribute : (profile.email ?? profile.mail ?? profile.nameID ?? '');
  return {
    identity: { subject, email: String(email), assertionId, expires, authMethods: authnContextOf(assertionXml) },
    requestKey: taken.requestId ? key(taken.requestId) : null,
  };
}

/** The assertion's AuthnContextClassRef values (bounded: at most 5 of at most 200 characters). */
function authnContextOf(assertionXml: string): string[] {
  const found = assertionXml.matchAll(/<(?:\w+:)?AuthnContextClassRef>\s*([^<]{1,200}?)\s*<\//g);
  return [...found]
    .map((m) => m[1] ?? '')
    .filter(Boolean)
    .slice(0, 5);
}

/** Records an accepted assertion; false when it was seen before (a replay). */
export async function rememberAssertion(deps: AppDeps, idpId: string, assertionId: string, expires: number) {
  if (!assertionId) return false;
  await deleteAssertionsBefore(deps.db, deps.now());
  try {
    await insertAssertion(deps.db, idpId, assertionId, Math.max(expires, deps.now() + 60_000));
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}
