import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestApi } from './api.ts';

/** A data directory of its own for each suite, so stored logos never land in the project's data/. */
export const testDataDir = (): Record<string, string> => ({
  DATA_DIR: mkdtempSync(join(tmpdir(), 'medlocker-estate-')),
});

export const validBusiness = (name = 'Boots Leeds', extra: Record<string, unknown> = {}) => ({
  name,
  email: 'leeds@boots.example',
  address: { line1: '1 Briggate', postTown: 'Leeds', postcode: 'ls1 6hd' },
  notificationEmails: ['alerts@boots.example'],
  keyholdersMobileNumbers: ['07700 900123'],
  ...extra,
});

/** Signs in a support user and answers call options for them. */
export async function supportSession(t: TestApi) {
  const admin = await t.signIn({ support: true, givenName: 'Sam', familyName: 'Support' });
  return { admin, as: { cookie: admin.cookie } };
}

/** PNG and JPEG bytes: a real signature and padding up to `size`. */
export function pngBytes(size = 64): Uint8Array {
  const bytes = new Uint8Array(size);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return bytes;
}

export function jpegBytes(size = 64): Uint8Array {
  const bytes = new Uint8Array(size);
  bytes.set([0xff, 0xd8, 0xff, 0xe0]);
  return bytes;
}

export const dataUrl = (type: string, bytes: Uint8Array) =>
  `data:${type};base64,${Buffer.from(bytes).toString('base64')}`;
