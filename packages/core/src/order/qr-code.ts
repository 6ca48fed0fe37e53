import { type } from 'arktype';
import { stringLimits } from '../validation/string-limits.ts';
import { maxCollectionWindowDays } from './transitions.ts';

/*
 * A bag's QR code (docs/ORDERS.md "QR-code orders"): a pharmacy system that cannot call the API prints,
 * on the bag, an order it signed offline with its business's QR signing key. Scanned by a locker (the
 * BagLoaded `qrCode` field) or at the console, it creates the order (createdVia 'qr-code').
 *
 * Text: `MLQR1.<payload>.<signature>` where `<payload>` is the base64url (no padding) of the UTF-8 JSON
 * of {@link QrPayload} and `<signature>` the base64url HMAC-SHA256 of `MLQR1.<payload>` (the ASCII text
 * up to the second dot) keyed with the signing key's text as UTF-8. Web Crypto only: the same code runs
 * in the api, the cli, the simulator and a browser.
 */

export const qrCodeVersion = 'MLQR1';

/** Longer text is no code of ours (a payload at its limits is about 600 characters). */
export const qrCodeMaxLength = 1024;

/** What a QR code says: the business, the patient's id in the pharmacy's system, the bag's barcode. */
export const QrPayload = type({
  /** The business's id (MedLocker's). */
  business: `0 < string <= ${stringLimits.id}`,
  /** The patient's display id in that business (the pharmacy system's id, or NHS number). */
  patient: `0 < string <= ${stringLimits.id}`,
  barcode: `0 < string <= ${stringLimits.barcode}`,
  /** After this time (ms since the epoch) the code is refused: an old label cannot make an order. */
  'expires?': '0 <= number.integer <= 8640000000000000',
  /** The collection window in days; the business's default when left out. */
  'collectionWindow?': `1 <= number.integer <= ${maxCollectionWindowDays}`,
});
export type QrPayload = typeof QrPayload.infer;

/** Why a text is not a QR code this business can use; `message` is what staff read. */
export type QrProblem = { id: 'INVALID_QR_CODE' | 'QR_CODE_SIGNATURE' | 'QR_CODE_EXPIRED'; message: string };

export type ReadQrCode =
  | { ok: true; payload: QrPayload; signed: string; signature: string }
  | { ok: false; problem: QrProblem };

const malformed = (message: string): ReadQrCode => ({ ok: false, problem: { id: 'INVALID_QR_CODE', message } });

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  try {
    const binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

const hmacKey = (key: string, usage: 'sign' | 'verify') =>
  crypto.subtle.importKey('raw', new TextEncoder().encode(key), { name: 'HMAC', hash: 'SHA-256' }, false, [usage]);

/** Signs a payload with a business's QR signing key: the text to print as a QR code on the bag. */
export async function signQrCode(key: string, payload: QrPayload): Promise<string> {
  const signed = `${qrCodeVersion}.${toBase64Url(new TextEncoder().encode(JSON.stringify(payload)))}`;
  const mac = await crypto.subtle.sign('HMAC', await hmacKey(key, 'sign'), new TextEncoder().encode(signed));
  return `${signed}.${toBase64Url(new Uint8Array(mac))}`;
}

/**
 * Reads a scanned text without checking its signature (the business it names says which key checks
 * it): trimmed, `MLQR1.` then two base64url parts, the first a JSON {@link QrPayload}.
 */
export function readQrCode(text: string): ReadQrCode {
  const trimmed = text.trim();
  if (trimmed.length > qrCodeMaxLength) return malformed('This is not a MedLocker QR code: it is too long');
  const parts = trimmed.split('.');
  if (parts.length !== 3 || parts[0] !== qrCodeVersion) return malformed('This is not a MedLocker QR code');
  const [, body = '', signature = ''] = parts;
  const bytes = fromBase64Url(body);
  let json: unknown;
  try {
    json = bytes ? JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) : undefined;
  } catch {
    json = undefined;
  }
  const payload = QrPayload(json);
  if (payload instanceof type.errors)
    return malformed('This QR code does not name a business, a patient and a barcode');
  if (!/^[A-Za-z0-9_-]{43}$/.test(signature)) return malformed('This QR code is not signed');
  return { ok: true, payload, signed: `${qrCodeVersion}.${body}`, signature };
}

/**
 * Checks a read code's signature with the business's key (Web Crypto's verify compares in constant
 * time) and its expiry: the problem, or null when the code is good.
 */
export async function checkQrCode(
  key: string,
  code: Extract<ReadQrCode, { ok: true }>,
  now: number,
): Promise<QrProblem | null> {
  const signature = fromBase64Url(code.signature);
  const good =
    signature !== null &&
    (await crypto.subtle.verify(
      'HMAC',
      await hmacKey(key, 'verify'),
      signature,
      new TextEncoder().encode(code.signed),
    ));
  if (!good) {
    return { id: 'QR_CODE_SIGNATURE', message: "This QR code is not signed with this business's QR signing key" };
  }
  if (code.payload.expires !== undefined && code.payload.expires < now) {
    return {
      id: 'QR_CODE_EXPIRED',
      message: `This QR code expired on ${new Date(code.payload.expires).toISOString().slice(0, 10)}`,
    };
  }
  return null;
}
