/* `POST /hooks/judopay`: Judopay calls back about a payment whose browser never came back. */
import { createHash, timingSafeEqual } from 'node:crypto';
import { AppError } from '@medlocker/core';
import { Elysia } from 'elysia';
import { completeFromWebhook } from '../areas/checkout/index.ts';
import { systemActor } from '../context/actor.ts';
import type { AppDeps } from '../context/deps.ts';
import { readReceipt } from '../payments/judopay.ts';

/** The largest webhook body read: a receipt is a couple of KB. */
const MAX_BODY = 64 * 1024;

export const JUDOPAY_WEBHOOK_PATH = '/hooks/judopay';

/** Compares two secrets in constant time whatever their lengths (both hashed first). */
const same = (a: string, b: string) =>
  timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());

/** Whether the request carries the Basic credential Judopay's portal gave for webhooks. */
function authorised(request: Request, expected: { user: string; password: string }): boolean {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(request.headers.get('authorization')?.trim() ?? '');
  if (!match?.[1]) return false;
  return same(Buffer.from(match[1], 'base64').toString('utf8'), `${expected.user}:${expected.password}`);
}

/** The `content` form field (URL-encoded or multipart), or null. */
async function contentField(request: Request, text: string): Promise<string | null> {
  const type = request.headers.get('content-type') ?? '';
  if (/^multipart\/form-data/i.test(type)) {
    try {
      const value = (await new Response(text, { headers: { 'content-type': type } }).formData()).get('content');
      return typeof value === 'string' ? value : null;
    } catch {
      return null;
    }
  }
  return new URLSearchParams(text).get('content');
}

/**
 * `POST /hooks/judopay`: Judopay's webhook, for a payment whose browser never came back. Basic auth
 * against JUDOPAY_WEBHOOK_USER/PASSWORD (wrong: 401, not configured: 404); the receipt is JSON in form
 * field `content` (malformed: 400). Its content is not trusted: the payment is completed through the
 * same path as the browser's, which reads the receipt from Judopay. A receipt naming no payment of ours,
 * or one Judopay does not know, is answered 200 and logged (Judopay would retry anything else), as is a
 * refused one (it will not get better); Judopay unreachable is 503, so the webhook comes again.
 */
export function judopayWebhookRoutes(deps: AppDeps) {
  const { logger } = deps;
  return new Elysia({ name: 'checkout:judopay-webhook' }).post(
    JUDOPAY_WEBHOOK_PATH,
    async ({ request, set }) => {
      const expected = deps.config.judopay.webhook;
      if (!expected) {
        set.status = 404;
        return { error: 'Judopay webhooks are not configured' };
      }
      if (!authorised(request, expected)) {
        set.status = 401;
        set.headers['www-authenticate'] = 'Basic realm="judopay"';
        return { error: 'Unauthorised' };
      }
      const text = await request.text();
      const content = text.length > MAX_BODY ? null : await contentField(request, text);
      let receipt = null;
      try {
        receipt = content === null ? null : readReceipt(JSON.parse(content));
      } catch {
        receipt = null;
      }
      if (!receipt) {
        set.status = 400;
        return { error: 'A webhook needs a receipt (receiptId, yourPaymentReference, result) in form field content' };
      }
      const ids = { receiptId: receipt.receiptId, yourPaymentReference: receipt.yourPaymentReference };
      try {
        const done = await completeFromWebhook(deps, systemActor('judopay.webhook'), receipt);
        if (!done) {
          logger.info('Judopay webhook for a payment that is not ours', ids);
          return { outcome: 'unknown' };
        }
        return { outcome: done.outcome, changed: done.changed };
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        if (error.code === 'UNAVAILABLE') {
          set.status = 503;
          return { error: 'Judopay could not be reached: send it again' };
        }
        logger.warn('Judopay webhook refused', { ...ids, code: error.code, reason: error.message });
        return { outcome: 'refused', reason: error.message };
      }
    },
    { parse: 'none' },
  );
}
