import { describe, expect, it } from 'bun:test';
import { clientAddress, isSecure, requestMeta } from './request-meta.ts';

const req = (forwarded?: string) =>
  new Request('http://localhost/machine/device/code', {
    method: 'POST',
    headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded },
  });
const server = (address: string) => ({ requestIP: () => ({ address }) });

describe('the client address', () => {
  it('is the socket peer when no proxy is trusted, whatever X-Forwarded-For says', () => {
    expect(clientAddress(req('203.0.113.9'), '198.51.100.4', [])).toBe('198.51.100.4');
    expect(requestMeta(req('203.0.113.9'), server('198.51.100.4')).ip).toBe('198.51.100.4');
  });

  it('is read from X-Forwarded-For, right to left past trusted proxies, when the peer is one', () => {
    const trust = ['10.0.0.0/8'];
    expect(clientAddress(req('203.0.113.9'), '10.1.2.3', trust)).toBe('203.0.113.9');
    // A client that sends its own header cannot choose: the first untrusted hop from the right counts.
    expect(clientAddress(req('192.0.2.66, 203.0.113.9, 10.4.0.1'), '10.1.2.3', trust)).toBe('203.0.113.9');
    expect(requestMeta(req('203.0.113.9'), server('10.1.2.3'), trust).ip).toBe('203.0.113.9');
  });

  it('stays the peer when the peer is not a trusted proxy, or sent no header', () => {
    expect(clientAddress(req('203.0.113.9'), '198.51.100.4', ['10.0.0.0/8'])).toBe('198.51.100.4');
    expect(clientAddress(req(), '10.1.2.3', ['10.0.0.0/8'])).toBe('10.1.2.3');
  });

  it('understands IPv6, IPv4 written as IPv6, and the named ranges', () => {
    expect(clientAddress(req('2001:db8::5'), '::ffff:127.0.0.1', ['loopback'])).toBe('2001:db8::5');
    expect(clientAddress(req('203.0.113.9'), 'fd00::1', ['uniquelocal'])).toBe('203.0.113.9');
  });

  it('falls back to the peer on a header it cannot read', () => {
    expect(clientAddress(req('not-an-address'), '10.1.2.3', ['10.0.0.0/8'])).toBe('10.1.2.3');
    expect(clientAddress(req('203.0.113.9, x'), '10.1.2.3', ['10.0.0.0/8'])).toBe('10.1.2.3');
  });
});

describe('whether the request came over HTTPS', () => {
  const proto = (value: string, url = 'http://localhost/rpc/auth/login') =>
    new Request(url, { method: 'POST', headers: { 'x-forwarded-proto': value } });

  it('believes X-Forwarded-Proto only from a trusted proxy', () => {
    expect(isSecure(proto('https'), '10.1.2.3', ['10.0.0.0/8'])).toBe(true);
    expect(isSecure(proto('https'), '198.51.100.4', ['10.0.0.0/8'])).toBe(false);
    expect(isSecure(proto('https'), '198.51.100.4', [])).toBe(false);
    expect(requestMeta(proto('https'), server('198.51.100.4')).secure).toBe(false);
    expect(requestMeta(proto('https'), server('10.1.2.3'), ['10.0.0.0/8']).secure).toBe(true);
  });

  it('reads the first value of a list, the one the outermost proxy saw', () => {
    expect(isSecure(proto('HTTPS, http'), '10.1.2.3', ['10.0.0.0/8'])).toBe(true);
    expect(isSecure(proto('http, https'), '10.1.2.3', ['10.0.0.0/8'])).toBe(false);
  });

  it('is true for a request made over HTTPS itself', () => {
    expect(isSecure(proto('http', 'https://medlocker.example/rpc/auth/login'), null, [])).toBe(true);
  });
});
