import { X509Certificate } from 'node:crypto';
import type { AppDeps } from '../../context/deps.ts';
import type { StoredConfiguration } from './config.ts';
import { cachedMetadata, storeMetadata } from './metadata-repository.ts';
import { type ProviderPolicy, providerFetch } from './provider-fetch.ts';
import { readIdpMetadata } from './saml-idp-metadata.ts';

/*
 * What `identityProviders.test` says of a SAML provider: whether its metadata can be read and holds a
 * sign-in URL and a signing certificate, and whether the certificate is one we can read and in date.
 */

type Check = { check: string; ok: boolean; message: string };

/**
 * Metadata read by URL is kept 10 minutes rather than fetched at every sign-in (twice: at the request
 * and at the response), in the database (migration 0038), so every api process reads what any of them
 * fetched. `identityProviders.test` always fetches it afresh and keeps what it read: a provider that
 * rotated its certificate is picked up by every process by pressing Test.
 */
export const METADATA_TTL_MS = 10 * 60_000;

/** Where fetched metadata is kept for every process, and the clock that dates it. */
export type MetadataStore = Pick<AppDeps, 'db' | 'now'>;

async function fetchMetadata(url: string, policy: ProviderPolicy): Promise<{ xml: string } | { problem: string }> {
  try {
    // Checked (https, public address, every redirect), 5 s and 1 MB at most: sso/provider-fetch.ts.
    const response = await providerFetch(policy)(url);
    if (!response.ok) return { problem: `The metadata URL answered HTTP ${response.status}` };
    return { xml: await response.text() };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return {
      problem: `The metadata URL could not be reached: ${error instanceof Error ? error.message : String(error)}${cause ? ` (${cause})` : ''}`,
    };
  }
}

async function metadataText(
  c: StoredConfiguration,
  policy: ProviderPolicy,
  store: MetadataStore | undefined,
  options: { fresh?: boolean } = {},
): Promise<{ xml: string } | { problem: string } | null> {
  if (c.metadataXml) return { xml: c.metadataXml };
  if (!c.metadataUrl) return null;
  if (store && !options.fresh) {
    const hit = await cachedMetadata(store.db, c.metadataUrl);
    if (hit && store.now() - hit.fetched < METADATA_TTL_MS) return { xml: hit.xml };
  }
  const fetched = await fetchMetadata(c.metadataUrl, policy);
  if (store && 'xml' in fetched) await storeMetadata(store.db, c.metadataUrl, fetched.xml, store.now());
  return fetched;
}

function certificateCheck(pem: string): Check {
  const body = pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
  try {
    const cert = new X509Certificate(Buffer.from(body, 'base64'));
    const until = new Date(cert.validTo);
    if (until.getTime() < Date.now())
      return {
        check: 'Certificate',
        ok: false,
        message: `The signing certificate expired on ${until.toISOString().slice(0, 10)}`,
      };
    return {
      check: 'Certificate',
      ok: true,
      message: `${cert.subject.replace(/\n/g, ', ')}, valid until ${until.toISOString().slice(0, 10)}`,
    };
  } catch {
    return { check: 'Certificate', ok: false, message: 'The signing certificate is not a readable X.509 certificate' };
  }
}

/**
 * The IdP's sign-in URL, signing certificates and entity id, from its metadata or as typed (a typed
 * value wins); or a problem in words.
 */
export async function readSamlMetadata(
  c: StoredConfiguration,
  policy: ProviderPolicy,
  store: MetadataStore,
): Promise<{ ssoUrl: string; certificates: string[]; entityId: string } | { problem: string }> {
  const read = await metadataText(c, policy, store);
  if (read && 'problem' in read) return read;
  const meta = read ? readIdpMetadata(read.xml, c.entityId) : null;
  if (meta && 'problem' in meta) return meta;
  return {
    ssoUrl: c.ssoUrl || (meta?.ssoUrl ?? ''),
    certificates: c.certificate ? [c.certificate] : (meta?.certificates ?? []),
    entityId: c.entityId || (meta?.entityId ?? ''),
  };
}

/** What Test says of a SAML provider: its metadata, sign-in URL and each signing certificate. */
export async function checkSamlMetadata(
  c: StoredConfiguration,
  policy: ProviderPolicy,
  store?: MetadataStore,
): Promise<Check[]> {
  const checks: Check[] = [];
  const read = await metadataText(c, policy, store, { fresh: true });
  const meta = read && 'xml' in read ? readIdpMetadata(read.xml, c.entityId) : null;
  if (read && 'problem' in read) checks.push({ check: 'Metadata', ok: false, message: read.problem });
  if (meta && 'problem' in meta) checks.push({ check: 'Metadata', ok: false, message: meta.problem });
  const found = meta && !('problem' in meta) ? meta : null;
  if (found) checks.push({ check: 'Metadata', ok: true, message: `Entity ${found.entityId || '(no entityID)'}` });
  const ssoUrl = c.ssoUrl || (found?.ssoUrl ?? '');
  const certificates = c.certificate ? [c.certificate] : (found?.certificates ?? []);
  checks.push(
    ssoUrl
      ? { check: 'Sign-in URL', ok: true, message: ssoUrl }
      : { check: 'Sign-in URL', ok: false, message: 'No single sign-on URL: the metadata has no SingleSignOnService' },
  );
  if (certificates.length === 0) checks.push({ check: 'Certificate', ok: false, message: 'No signing certificate' });
  for (const certificate of certificates) checks.push(certificateCheck(certificate));
  return checks;
}
