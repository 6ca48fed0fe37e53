import { X509Certificate } from 'node:crypto';
import type { StoredConfiguration } from './config.ts';
import { type ProviderPolicy, providerFetch } from './provider-fetch.ts';

/*
 * What `identityProviders.test` says of a SAML provider: whether its metadata can be read and holds a
 * sign-in URL and a signing certificate, and whether the certificate is one we can read and in date.
 */

type Check = { check: string; ok: boolean; message: string };

/**
 * Metadata read by URL is kept 10 minutes (per URL, per process) rather than fetched at every sign-in
 * (twice: at the request and at the response). `identityProviders.test` always fetches it afresh, and
 * what it reads is kept: a provider that rotated its certificate is picked up by pressing Test.
 */
export const METADATA_TTL_MS = 10 * 60_000;
const METADATA_CACHE_SIZE = 200;
const metadataCache = new Map<string, { at: number; xml: string }>();

async function metadataText(
  c: StoredConfiguration,
  policy: ProviderPolicy,
  options: { fresh?: boolean } = {},
): Promise<{ xml: string } | { problem: string } | null> {
  if (c.metadataXml) return { xml: c.metadataXml };
  if (!c.metadataUrl) return null;
  const hit = metadataCache.get(c.metadataUrl);
  if (hit && !options.fresh && Date.now() - hit.at < METADATA_TTL_MS) return { xml: hit.xml };
  try {
    // Checked (https, public address, every redirect), 5 s and 1 MB at most: sso/provider-fetch.ts.
    const response = await providerFetch(policy)(c.metadataUrl);
    if (!response.ok) return { problem: `The metadata URL answered HTTP ${response.status}` };
    const xml = await response.text();
    metadataCache.delete(c.metadataUrl);
    if (metadataCache.size >= METADATA_CACHE_SIZE) {
      const oldest = metadataCache.keys().next().value;
      if (oldest !== undefined) metadataCache.delete(oldest);
    }
    metadataCache.set(c.metadataUrl, { at: Date.now(), xml });
    return { xml };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return {
      problem: `The metadata URL could not be reached: ${error instanceof Error ? error.message : String(error)}${cause ? ` (${cause})` : ''}`,
    };
  }
}

const attr = (tag: string, name: string): string | null => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1] ?? null;

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

/** The IdP's sign-in URL, certificate and entity id, from its metadata or as typed; or a problem in words. */
export async function readSamlMetadata(
  c: StoredConfiguration,
  policy: ProviderPolicy,
): Promise<{ ssoUrl: string; certificate: string; entityId: string } | { problem: string }> {
  const read = await metadataText(c, policy);
  if (read && 'problem' in read) return read;
  let ssoUrl = c.ssoUrl;
  let certificate = c.certificate;
  let entityId = c.entityId;
  if (read && 'xml' in read) {
    const entity = /<(?:\w+:)?EntityDescriptor\b[^>]*>/.exec(read.xml);
    if (!entity || !/<(?:\w+:)?IDPSSODescriptor\b/.test(read.xml))
      return { problem: 'The metadata is not a SAML identity provider description' };
    entityId = entityId || (attr(entity[0], 'entityID') ?? '');
    const sso =
      /<(?:\w+:)?SingleSignOnService\b[^>]*Binding="urn:oasis:names:tc:SAML:2\.0:bindings:HTTP-Redirect"[^>]*>/.exec(
        read.xml,
      );
    ssoUrl = ssoUrl || (sso ? (attr(sso[0], 'Location') ?? '') : '');
    certificate = certificate || (/<(?:\w+:)?X509Certificate>([^<]+)</.exec(read.xml)?.[1]?.replace(/\s+/g, '') ?? '');
  }
  return { ssoUrl, certificate, entityId };
}

export async function checkSamlMetadata(c: StoredConfiguration, policy: ProviderPolicy): Promise<Check[]> {
  const checks: Check[] = [];
  const read = await metadataText(c, policy, { fresh: true });
  let ssoUrl = c.ssoUrl;
  let certificate = c.certificate;
  if (read && 'problem' in read) checks.push({ check: 'Metadata', ok: false, message: read.problem });
  if (read && 'xml' in read) {
    const xml = read.xml;
    const entity = /<(?:\w+:)?EntityDescriptor\b[^>]*>/.exec(xml);
    const idp = /<(?:\w+:)?IDPSSODescriptor\b/.test(xml);
    if (!entity || !idp) {
      checks.push({
        check: 'Metadata',
        ok: false,
        message:
          'The metadata is not a SAML identity provider description (no EntityDescriptor with an IDPSSODescriptor)',
      });
    } else {
      const entityId = attr(entity[0], 'entityID');
      checks.push({ check: 'Metadata', ok: true, message: `Entity ${entityId ?? '(no entityID)'}` });
      if (c.entityId && entityId && c.entityId !== entityId)
        checks.push({
          check: 'Entity id',
          ok: false,
          message: `The metadata says ${entityId}, the provider is set to ${c.entityId}`,
        });
      const sso =
        /<(?:\w+:)?SingleSignOnService\b[^>]*Binding="urn:oasis:names:tc:SAML:2\.0:bindings:HTTP-Redirect"[^>]*>/.exec(
          xml,
        ) ?? /<(?:\w+:)?SingleSignOnService\b[^>]*>/.exec(xml);
      ssoUrl = ssoUrl || (sso ? (attr(sso[0], 'Location') ?? '') : '');
      const cert = /<(?:\w+:)?X509Certificate>([^<]+)</.exec(xml);
      certificate = certificate || (cert?.[1] ?? '');
    }
  }
  checks.push(
    ssoUrl
      ? { check: 'Sign-in URL', ok: true, message: ssoUrl }
      : { check: 'Sign-in URL', ok: false, message: 'No single sign-on URL: the metadata has no SingleSignOnService' },
  );
  checks.push(
    certificate
      ? certificateCheck(certificate)
      : { check: 'Certificate', ok: false, message: 'No signing certificate' },
  );
  return checks;
}
