import { describe, expect, it } from 'bun:test';
import { checkQrCode, readQrCode, signQrCode } from './qr-code.ts';

// The worked example of docs/ORDERS.md "QR-code orders": a pharmacy system reproducing it is compatible.
const key = 'mlqr_4k9Yp2Qx7Lm0Vb3Nc8Rt1Hs6Jd5Fg2Wa9Ze4Ku7Io0P';
const payload = {
  business: '019a5e0c-7b7e-7c3e-9d5b-3f2a1b0c9d8e',
  patient: '9434765919',
  barcode: 'RX-000123',
  expires: 1798761600000,
};
const documented =
  'MLQR1.eyJidXNpbmVzcyI6IjAxOWE1ZTBjLTdiN2UtN2MzZS05ZDViLTNmMmExYjBjOWQ4ZSIsInBhdGllbnQiOiI5NDM0NzY1OTE5IiwiYmFyY29kZSI6IlJYLTAwMDEyMyIsImV4cGlyZXMiOjE3OTg3NjE2MDAwMDB9.vAJS1f_vYcP0DxS0RKhBEy8oPq8hfJ1G1M7eq8uiw5M';

describe('bag QR codes', () => {
  it('signs the documented example to the documented text, and reads it back', async () => {
    expect(await signQrCode(key, payload)).toBe(documented);
    const read = readQrCode(` ${documented}\n`);
    if (!read.ok) throw new Error(read.problem.message);
    expect(read.payload).toEqual(payload);
    expect(await checkQrCode(key, read, payload.expires)).toBeNull();
  });

  it('refuses another key, an altered payload and a passed expiry', async () => {
    const read = readQrCode(documented);
    if (!read.ok) throw new Error('unread');
    expect((await checkQrCode(`${key}x`, read, 0))?.id).toBe('QR_CODE_SIGNATURE');
    const altered = readQrCode(documented.replace('eyJidXNpbmVzcyI6IjAx', 'eyJidXNpbmVzcyI6IjAy'));
    if (!altered.ok) throw new Error('unread');
    expect((await checkQrCode(key, altered, 0))?.id).toBe('QR_CODE_SIGNATURE');
    expect(await checkQrCode(key, read, payload.expires + 1)).toEqual({
      id: 'QR_CODE_EXPIRED',
      message: 'This QR code expired on 2027-01-01',
    });
  });

  it('reads nothing that is not MLQR1 with a JSON payload and a 32-byte signature', () => {
    const [, body = '', mac = ''] = documented.split('.');
    for (const text of [
      '',
      'RX-000123',
      `MLQR2.${body}.${mac}`,
      `MLQR1.${body}`,
      `MLQR1.${body}.${mac}.x`,
      `MLQR1.${body}.${mac.slice(1)}`,
      `MLQR1.${btoa('not json')}.${mac}`,
      `MLQR1.${btoa('{"business":"b","patient":"p"}').replace(/=+$/, '')}.${mac}`,
      `MLQR1.${body}+.${mac}`,
      'MLQR1.'.padEnd(2000, 'A'),
    ]) {
      expect([text.slice(0, 20), readQrCode(text).ok]).toEqual([text.slice(0, 20), false]);
    }
  });
});
