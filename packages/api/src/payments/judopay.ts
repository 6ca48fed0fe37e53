/*
 * Judopay's Transaction API, as much of it as the checkout needs (REFERENCE.md, Judopay):
 * - `POST /webpayments/payments` starts a hosted payment ("Web Payments"): Judopay answers a
 *   `reference` and the `postUrl` of its payment page, where the browser goes;
 * - `GET /transactions/{receiptId}` reads a finished payment's receipt, which is what we trust (never
 *   the browser's copy, never the webhook's).
 * HTTP Basic with the business's API token and secret, an `API-Version` header, JSON both ways.
 * 429 and 5xx (and no answer at all) are worth trying again; any other refusal is permanent and keeps
 * Judopay's own message and error code (86: the payment reference was used before).
 */

import type { CardScheme } from '@medlocker/core';

/** The API version we speak: Web Payments need 6.0 or later. */
export const JUDOPAY_API_VERSION = '6.23';

/** How long one call may take before it counts as unanswered (retryable). */
const TIMEOUT_MS = 15_000;

export type JudopayCredentials = { apiUrl: string; token: string; secret: string };

export class JudopayError extends Error {
  override name = 'JudopayError';
  constructor(
    /** Judopay's message, or what went wrong on the way. */
    readonly reason: string,
    readonly retryable: boolean,
    /** null when Judopay never answered. */
    readonly httpStatus: number | null,
    /** Judopay's numeric error code (e.g. 86, a reused payment reference), when it gave one. */
    readonly code: number | null = null,
  ) {
    super(`Judopay: ${reason}`);
  }
}

export type WebPaymentRequest = {
  judoId: string;
  /** Pence: sent as decimal pounds, as Judopay takes them. */
  amount: number;
  currency: string;
  yourConsumerReference: string;
  yourPaymentReference: string;
  /** Where Judopay's page sends the browser after a payment, and after a cancel (else the portal's). */
  successUrl?: string;
  cancelUrl?: string;
};

export type WebPayment = { reference: string; postUrl: string };

/** A receipt as Judopay reports it, with the amount in pence (null when it is not a money amount). */
export type JudoReceipt = {
  receiptId: string;
  yourPaymentReference: string;
  /** `Payment`, `PreAuth`, `Refund`, … */
  type: string | null;
  /** `Success`, `Declined` or `Error` (anything else is kept as sent). */
  result: string;
  message: string | null;
  judoId: string;
  amount: number | null;
  currency: string;
  createdAt: string | null;
  /** The card's scheme, from `cardDetails` (null: no card details, or a scheme we have no toggle for). */
  cardScheme: CardScheme | null;
};

export type JudopayClient = {
  createWebPayment(request: WebPaymentRequest): Promise<WebPayment>;
  /** null when Judopay has no such receipt (for these credentials). */
  getTransaction(receiptId: string): Promise<JudoReceipt | null>;
};

/** Pence as Judopay's decimal pounds (990 → 9.9, which JSON writes as Judopay reads it). */
export const poundsOf = (pence: number): number => Number((pence / 100).toFixed(2));

/**
 * Judopay's decimal pounds (a number such as 9.9, or a string such as "9.90") as pence; null for
 * anything that is not a non-negative amount with at most 2 decimals. Read from the digits, not by
 * floating-point multiplication, so 9.9 is exactly 990.
 */
export function penceOf(value: unknown): number | null {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : String(value ?? '');
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** Judo ids are written with or without separators (100-100-100, 100100100): compared without them. */
export const sameJudoId = (a: string, b: string): boolean => a.replace(/[\s-]/g, '') === b.replace(/[\s-]/g, '');

const str = (v: unknown): string | null =>
  typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null;

/** Judopay's older numeric `cardType` (its CardType enum) for the schemes we have toggles for. */
const schemeOfCardType: Record<number, CardScheme> = {
  1: 'visa', // Visa credit
  3: 'visa', // Visa Electron
  11: 'visa', // Visa debit
  13: 'visa', // Visa purchasing
  2: 'mastercard', // Mastercard credit
  10: 'mastercard', // Maestro (a Mastercard scheme)
  12: 'mastercard', // Mastercard debit
  8: 'amex',
};

/**
 * The scheme of a receipt's card: `cardDetails.cardScheme` ("Visa", "Mastercard", "Amex", …) where
 * Judopay gives it, else its deprecated numeric `cardType`. null when neither names one of ours.
 */
export function cardSchemeOf(cardDetails: unknown): CardScheme | null {
  if (!cardDetails || typeof cardDetails !== 'object') return null;
  const d = cardDetails as Record<string, unknown>;
  const scheme = typeof d.cardScheme === 'string' ? d.cardScheme.toLowerCase() : '';
  if (scheme.includes('visa')) return 'visa';
  if (scheme.includes('mastercard') || scheme.includes('maestro')) return 'mastercard';
  if (scheme.includes('amex') || scheme.includes('american express')) return 'amex';
  const type = typeof d.cardType === 'number' ? d.cardType : Number(d.cardType);
  return schemeOfCardType[type] ?? null;
}

/** A receipt object (GET /transactions/{id}, or a webhook's `content`) read field by field. */
export function readReceipt(body: unknown): JudoReceipt | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  const r = body as Record<string, unknown>;
  const receiptId = str(r.receiptId);
  const yourPaymentReference = str(r.yourPaymentReference);
  const result = str(r.result);
  if (!receiptId || !yourPaymentReference || !result) return null;
  return {
    receiptId,
    yourPaymentReference,
    type: str(r.type),
    result,
    message: str(r.message),
    judoId: str(r.judoId) ?? '',
    amount: penceOf(r.amount),
    currency: (str(r.currency) ?? '').toUpperCase(),
    createdAt: str(r.createdAt),
    cardScheme: cardSchemeOf(r.cardDetails),
  };
}

/** A client for one business's credentials. */
export function judopayClient(credentials: JudopayCredentials): JudopayClient {
  const base = credentials.apiUrl.replace(/\/+$/, '');
  const authorization = `Basic ${Buffer.from(`${credentials.token}:${credentials.secret}`).toString('base64')}`;

  async function call(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
  ): Promise<{ status: number; json: unknown }> {
    let res: Response;
    try {
      res = await fetch(`${base}${path}`, {
        method,
        headers: {
          authorization,
          'api-version': JUDOPAY_API_VERSION,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        redirect: 'error',
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      throw new JudopayError(`no answer (${(error as Error).message})`, true, null);
    }
    const text = await res.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = text;
    }
    return { status: res.status, json };
  }

  function refusal(status: number, json: unknown): JudopayError {
    const body = json && typeof json === 'object' ? (json as Record<string, unknown>) : {};
    const reason =
      str(body.message) ?? (typeof json === 'string' && json.trim() ? json.trim().slice(0, 200) : `HTTP ${status}`);
    const code = typeof body.code === 'number' ? body.code : null;
    return new JudopayError(reason, status === 429 || status >= 500, status, code);
  }

  return {
    async createWebPayment(request) {
      const { status, json } = await call('POST', '/webpayments/payments', {
        judoId: request.judoId,
        amount: poundsOf(request.amount),
        currency: request.currency,
        yourConsumerReference: request.yourConsumerReference,
        yourPaymentReference: request.yourPaymentReference,
        ...(request.successUrl ? { successUrl: request.successUrl } : {}),
        ...(request.cancelUrl ? { cancelUrl: request.cancelUrl } : {}),
      });
      if (status < 200 || status >= 300) throw refusal(status, json);
      const body = (json && typeof json === 'object' ? json : {}) as Record<string, unknown>;
      const reference = str(body.reference);
      const postUrl = str(body.postUrl);
      if (!reference || !postUrl) throw new JudopayError('the answer had no reference or postUrl', true, status);
      return { reference, postUrl };
    },

    async getTransaction(receiptId) {
      const { status, json } = await call('GET', `/transactions/${encodeURIComponent(receiptId)}`);
      if (status === 404) return null;
      if (status < 200 || status >= 300) throw refusal(status, json);
      const receipt = readReceipt(json);
      if (!receipt) throw new JudopayError('the answer was not a receipt', false, status);
      return receipt;
    },
  };
}
