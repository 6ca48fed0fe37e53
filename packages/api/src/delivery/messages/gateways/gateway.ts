import type { Locale } from '@medlocker/core';

/**
 * The common shape of every message gateway (SMS, WhatsApp, email): one `send` that either answers the
 * provider's id for the message, which its delivery reports name, or throws a {@link GatewayError} saying
 * whether trying again later could help. The job runner decides when to retry; adapters never retry.
 */
export type SendRequest = {
  /** A phone number (any UK or international form; each adapter writes it as its provider wants) or an email address. */
  to: string;
  body: string;
  /** The SMS sender ID (SPEC §5: 1–11 characters), or the email subject's sender name. */
  sender: string;
  /** Our message id (message_outbox.id): the provider's reference field, and the idempotency key where it has one. */
  reference: string;
  /** Where the provider sends delivery reports for this message, when it takes a per-message address. */
  reportUrl?: string;
  /** Email only: the subject line. */
  subject?: string;
  /** WhatsApp only: the languages of the body, first first (the template's language follows the first). */
  locales?: readonly Locale[];
};

export type SendResult = { provider: ProviderName; providerMessageId: string };

export type ProviderName = 'smsworks' | 'messagebird' | 'aws-sms' | 'whatsapp' | 'email' | 'local';

/** A message's channel as the order's timeline names it ("SMS failed: …"). */
export const channelNames = { sms: 'SMS', whatsapp: 'WhatsApp message', email: 'Email' } as const;

export type Gateway = { readonly provider: ProviderName; send(request: SendRequest): Promise<SendResult> };

/**
 * A send the provider refused or that never reached it. `retryable`: 429, 5xx, timeouts and network
 * failures (the message may go through later); every other refusal is permanent. `reason` is the
 * provider's own words, shown on the order's timeline.
 */
export class GatewayError extends Error {
  override name = 'GatewayError';
  constructor(
    readonly provider: ProviderName,
    readonly retryable: boolean,
    readonly reason: string,
    readonly httpStatus: number | null = null,
    /**
     * The request may have reached the provider before the failure (no answer in time, the connection
     * dropped after it was written): the message may well be on its way, so it is not simply sent again.
     */
    readonly maybeSent = false,
  ) {
    super(`${provider}: ${reason}`);
  }
}

/** Whether an HTTP status is worth trying again: rate limits and server faults. */
export const retryableStatus = (status: number) => status === 429 || status >= 500;

/** How long a provider may take to answer before the send counts as a (retryable) timeout. */
export const SEND_TIMEOUT_MS = 15_000;

/**
 * A UK or international phone number as E.164 (`+447700900123`): spaces, dashes, dots and brackets
 * dropped; a leading 0 is the UK trunk prefix, 00 the international one. Null when it cannot be one.
 */
export function toE164(phone: string): string | null {
  const digits = phone.trim().replace(/[\s().-]/g, '');
  let e164: string;
  if (digits.startsWith('+')) e164 = digits;
  else if (digits.startsWith('00')) e164 = `+${digits.slice(2)}`;
  else if (digits.startsWith('0')) e164 = `+44${digits.slice(1)}`;
  else if (digits.startsWith('44')) e164 = `+${digits}`;
  else return null;
  // '+44 (0)7700 …', as UK numbers are often written: the bracketed trunk 0 is not dialled from abroad.
  if (e164.startsWith('+440')) e164 = `+44${e164.slice(4)}`;
  return /^\+[1-9]\d{7,14}$/.test(e164) ? e164 : null;
}

/** {@link toE164}, or a permanent GatewayError naming the number. */
export function e164Or(provider: ProviderName, phone: string): string {
  const e164 = toE164(phone);
  if (e164 === null) throw new GatewayError(provider, false, `Not a phone number: ${phone}`);
  return e164;
}

/**
 * The provider's words from an error response: the first of the fields providers put them in
 * (`message`, `error.message`, `errors[].description`, `description`, `error`), else the body's text,
 * else the HTTP status line.
 */
export function reasonOf(status: number, text: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const found = pickReason(parsed);
  if (found) return found;
  const trimmed = text.trim().slice(0, 300);
  return trimmed || `HTTP ${status}`;
}

function pickReason(value: unknown): string | undefined {
  if (typeof value === 'string' && value.trim()) return value.trim();
  if (!value || typeof value !== 'object') return undefined;
  const o = value as Record<string, unknown>;
  if (Array.isArray(o.errors)) {
    const words = o.errors.map((e) => pickReason(e)).filter(Boolean);
    if (words.length > 0) return words.join('; ');
  }
  for (const key of ['message', 'description', 'error', 'detail', 'title']) {
    const found = pickReason(o[key]);
    if (found) return found;
  }
  return undefined;
}

/** Failures that happen before a request leaves: nothing can have reached the provider. */
const NOT_SENT_CODES = new Set([
  'ConnectionRefused',
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'FailedToOpenSocket',
  'UnableToConnect',
  'ERR_INVALID_URL',
]);

function neverSent(e: Error & { code?: unknown }): boolean {
  if (e.name === 'TimeoutError') return false;
  return typeof e.code === 'string' && NOT_SENT_CODES.has(e.code);
}

/**
 * POSTs JSON to a provider and answers the parsed response body; throws a GatewayError for a refusal
 * (by status), a timeout or a network failure. Redirects are not followed: a provider API never sends
 * one, and following it could resend the message elsewhere.
 */
export async function postJson(
  provider: ProviderName,
  url: string,
  headers: Record<string, string>,
  body: unknown,
): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      body: JSON.stringify(body),
      redirect: 'manual',
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    });
  } catch (error) {
    const e = error as Error & { code?: unknown };
    const reason = e.name === 'TimeoutError' ? `no answer within ${SEND_TIMEOUT_MS / 1000} s` : e.message;
    throw new GatewayError(provider, true, reason, null, !neverSent(e));
  }
  const text = await res.text().catch(() => '');
  if (!res.ok) throw new GatewayError(provider, retryableStatus(res.status), reasonOf(res.status, text), res.status);
  try {
    return JSON.parse(text);
  } catch {
    // Accepted, but we cannot read the id: sending again could duplicate it, so it is not retryable.
    throw new GatewayError(
      provider,
      false,
      `unreadable answer (HTTP ${res.status}): ${text.slice(0, 200)}`,
      res.status,
    );
  }
}
