import { describe, expect, it } from 'bun:test';
import { Webhook } from 'standardwebhooks';
import { newWebhookSecret } from '../secrets/secret-box.ts';
import { checkTarget, refusedAddress, refusedUrl } from './ssrf.ts';

const strict = { production: false, allowPrivateAddresses: false };

describe('webhook SSRF rules', () => {
  it('refuses every special range, and IPv4-mapped forms of them; allows public unicast', () => {
    for (const address of [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fd00:ec2::254',
      'fc00::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:169.254.169.254',
      '::ffff:10.0.0.1',
      // Special ranges ipaddr.js 1.9 calls unicast: benchmarking (also proxies' fake-IP DNS), site-local,
      // local-use NAT64 (to a private IPv4 through the site's gateway), IPv4-compatible, discard-only.
      '198.18.0.1',
      '198.19.255.254',
      'fec0::1',
      '64:ff9b:1::a00:1',
      '::7f00:1',
      '::a9fe:a9fe',
      '100::1',
    ]) {
      expect(refusedAddress(address), address).not.toBeNull();
    }
    for (const address of ['93.184.216.34', '8.8.8.8', '198.20.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
      expect(refusedAddress(address), address).toBeNull();
    }
  });

  it('takes only https in production, and no credentials in the URL', () => {
    expect(refusedUrl('http://pmr.example/h', { production: true, allowPrivateAddresses: true })).toBe(
      'The webhook URL must start with https://',
    );
    expect(refusedUrl('http://pmr.example/h', strict)).toBeNull();
    expect(refusedUrl('https://user:pw@pmr.example/h', strict)).toContain('user name');
    expect(refusedUrl('file:///etc/passwd', strict)).toContain('https://');
  });

  it('refuses a name when any of its addresses is private, and pins the first checked address', async () => {
    const resolve = (addresses: string[]) => async () =>
      addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    await expect(
      checkTarget('https://hooks.pmr.example/in', strict, { resolve: resolve(['93.184.216.34', '10.0.0.7']) }),
    ).rejects.toThrow('Refused: hooks.pmr.example resolves to 10.0.0.7, a private address');
    // An address typed as the host is not said to resolve to itself.
    await expect(checkTarget('https://127.0.0.1/in', strict, { resolve: resolve(['127.0.0.1']) })).rejects.toThrow(
      /^Refused: 127\.0\.0\.1 is a loopback address$/,
    );
    const ok = await checkTarget('https://hooks.pmr.example/in', strict, {
      resolve: resolve(['2606:4700:4700::1111', '93.184.216.34']),
    });
    expect([ok.address, ok.family, ok.url.hostname]).toEqual(['2606:4700:4700::1111', 6, 'hooks.pmr.example']);
    const unresolved = async () => {
      throw Object.assign(new Error('nope'), { code: 'ENOTFOUND' });
    };
    await expect(checkTarget('https://x.invalid/', strict, { resolve: unresolved })).rejects.toThrow(
      'x.invalid does not resolve (ENOTFOUND)',
    );
    expect(
      (await checkTarget('https://x.invalid/', strict, { resolve: unresolved, unresolved: 'allow' })).address,
    ).toBeNull();
    // Allowed private addresses (development, tests): no lookup at all, the URL as it is.
    expect(
      (await checkTarget('http://127.0.0.1:9/', { production: false, allowPrivateAddresses: true })).address,
    ).toBeNull();
  });

  it('makes webhook secrets the standardwebhooks library accepts: whsec_ + standard base64 of 32 bytes', () => {
    for (let i = 0; i < 200; i++) {
      const secret = newWebhookSecret();
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(() => new Webhook(secret)).not.toThrow();
    }
  });
});
