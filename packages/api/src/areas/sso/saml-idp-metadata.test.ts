import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { describeDb } from '@medlocker/db/testing';
import { makeSigningKey, type SigningKey } from '../../testing/identity-providers/saml-idp.ts';
import type { StoredConfiguration } from './config.ts';
import { readIdpMetadata } from './saml-idp-metadata.ts';
import { checkSamlMetadata, readSamlMetadata } from './saml-metadata.ts';

const base64 = (pem: string) => pem.replace(/-----(BEGIN|END) CERTIFICATE-----|\s/g, '');
let signing: SigningKey;
let rolled: SigningKey;
let encryption: SigningKey;
beforeAll(() => {
  [signing, rolled, encryption] = [makeSigningKey(), makeSigningKey(), makeSigningKey()];
});

const key = (cert: string, use?: string, q = '"') =>
  `<md:KeyDescriptor${use ? ` use=${q}${use}${q}` : ''}><ds:KeyInfo xmlns:ds=${q}http://www.w3.org/2000/09/xmldsig#${q}><ds:X509Data><ds:X509Certificate>\n  ${base64(cert)}\n</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`;

/** An IdP's EntityDescriptor with these KeyDescriptors, attributes in `q` quotes. */
const entity = (entityId: string, keys: string[], q = '"') =>
  `<md:EntityDescriptor xmlns:md=${q}urn:oasis:names:tc:SAML:2.0:metadata${q} entityID=${q}${entityId}${q}><md:IDPSSODescriptor protocolSupportEnumeration=${q}urn:oasis:names:tc:SAML:2.0:protocol${q}>${keys.join('')}<md:SingleSignOnService Binding=${q}urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST${q} Location=${q}${entityId}/post${q}/><md:SingleSignOnService Binding=${q}urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect${q} Location=${q}${entityId}/sso${q}/></md:IDPSSODescriptor></md:EntityDescriptor>`;

describe('reading an identity provider’s metadata', () => {
  it('keeps every signing certificate, never the encryption one, even when it comes first', () => {
    const xml = entity('https://idp.test', [
      key(encryption.cert, 'encryption'),
      key(signing.cert, 'signing'),
      key(rolled.cert),
    ]);
    expect(readIdpMetadata(xml, '')).toEqual({
      entityId: 'https://idp.test',
      ssoUrl: 'https://idp.test/sso',
      certificates: [base64(signing.cert), base64(rolled.cert)],
    });
  });

  it('reads single-quoted attributes as well as double-quoted ones', () => {
    const xml = entity('https://idp.test', [key(signing.cert, 'signing', "'")], "'");
    expect(readIdpMetadata(xml, 'https://idp.test')).toMatchObject({
      entityId: 'https://idp.test',
      ssoUrl: 'https://idp.test/sso',
      certificates: [base64(signing.cert)],
    });
  });

  it('takes the configured entity of a federation file, not the first, and asks which when none is set', () => {
    const federation = `<md:EntitiesDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata">${entity('https://other.test', [key(encryption.cert, 'signing')])}${entity('https://idp.test', [key(signing.cert, 'signing')])}</md:EntitiesDescriptor>`;
    expect(readIdpMetadata(federation, 'https://idp.test')).toMatchObject({
      ssoUrl: 'https://idp.test/sso',
      certificates: [base64(signing.cert)],
    });
    expect(readIdpMetadata(federation, '')).toEqual({
      problem: 'The metadata describes several identity providers: set the entity id of yours',
    });
    expect(readIdpMetadata(federation, 'https://nobody.test')).toEqual({
      problem: 'The metadata has no identity provider https://nobody.test',
    });
  });

  it('refuses what is not metadata: HTML, broken XML, a DTD', () => {
    expect(readIdpMetadata('<html>not metadata</html>', '')).toMatchObject({
      problem: expect.stringContaining('is not a SAML identity provider description'),
    });
    expect(readIdpMetadata('<md:EntityDescriptor', '')).toEqual({ problem: 'The metadata is not well-formed XML' });
    expect(readIdpMetadata('<!DOCTYPE x [<!ENTITY a "aaaa">]><x>&a;</x>', '')).toEqual({
      problem: 'The metadata has a DOCTYPE, which SAML metadata never needs',
    });
  });
});

describeDb('metadata read by URL', (t) => {
  let xml = '';
  let fetches = 0;
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: () => {
      fetches++;
      return new Response(xml, { headers: { 'content-type': 'application/samlmetadata+xml' } });
    },
  });
  afterAll(() => server.stop(true));
  const policy = { allowHttpLoopback: true };

  it('is kept for every api process: a certificate rotated and fetched by Test in one is used by the others at once', async () => {
    const c = {
      metadataUrl: `http://127.0.0.1:${server.port}/metadata`,
      entityId: 'https://idp.test',
    } as StoredConfiguration;
    const clock = { now: 1_000 };
    const processA = { db: t.db, now: () => clock.now };
    const processB = { db: t.db, now: () => clock.now };
    xml = entity('https://idp.test', [key(signing.cert, 'signing')]);
    expect(await readSamlMetadata(c, policy, processB)).toMatchObject({ certificates: [base64(signing.cert)] });
    clock.now += 60_000;
    expect(await readSamlMetadata(c, policy, processA)).toMatchObject({ certificates: [base64(signing.cert)] });
    expect(fetches).toBe(1);

    xml = entity('https://idp.test', [key(rolled.cert, 'signing')]);
    const checks = await checkSamlMetadata(c, policy, processA);
    expect(checks.filter((check) => !check.ok)).toEqual([]);
    expect(fetches).toBe(2);
    expect(await readSamlMetadata(c, policy, processB)).toMatchObject({ certificates: [base64(rolled.cert)] });
    expect(fetches).toBe(2);
  });
});
