import { Webhook } from 'standardwebhooks';
import { type CheckedTarget, checkTarget, pinnedFetch, RefusedTarget, type SsrfPolicy } from '../../ssrf/ssrf.ts';
/*
 * One webhook request (Standard Webhooks, docs/REFERENCE.md): POST the event's JSON with `webhook-id`,
 * `webhook-timestamp` and `webhook-signature` (`v1,<HMAC-SHA256>` by every secret that signs: the new and,
 * during a rotation, the old one), signed with the `standardwebhooks` library as receivers verify. The
 * host is checked (webhooks/ssrf.ts) and the request goes to the checked address with the URL's host in
 * `Host` and the TLS server name, so DNS cannot swap it between check and connect. No redirect is
 * followed (a 3xx is a failure), 10 s at most, and only the first 1 KB of the answer is read.
 */

export const WEBHOOK_TIMEOUT_MS = 10_000;
export const RESPONSE_EXCERPT_BYTES = 1024;
const USER_AGENT = 'MedLocker-Webhooks/1';

/**
 * The key of a stored secret: `whsec_` + base64. Secrets made before webhook signing followed Standard Webhooks are base64url, which the
 * library's decoder refuses ("-" and "_"): their bytes are the same key, so they are decoded here with
 * both alphabets and handed over raw (docs/decisions/webhooks.md "Webhook dispatch").
 */
export function signerOf(secret: string): Webhook {
  const encoded = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret;
  return new Webhook(new Uint8Array(Buffer.from(encoded, 'base64')), { format: 'raw' });
}

/** `webhook-signature`: one `v1,…` per signing secret, space-separated. */
export function signatureOf(signers: Webhook[], id: string, at: Date, body: string): string {
  return signers.map((s) => s.sign(id, at, body)).join(' ');
}

export type AttemptOutcome = {
  ok: boolean;
  /** The HTTP status, or null when there was no answer (refused, timeout, network error). */
  status: number | null;
  latencyMs: number;
  error: string | null;
  excerpt: string | null;
};

/**
 * Text from a receiver as PostgreSQL can keep it: no NUL and no half of a surrogate pair (a text or jsonb
 * value refuses both, and the whole batch's record would fail, its deliveries sent again and again), at
 * most `limit` characters.
 */
const storable = (text: string, limit = RESPONSE_EXCERPT_BYTES): string =>
  text
    .slice(0, limit)
    .replaceAll('\u0000', '\uFFFD')
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');

/** The first `limit` bytes of a body, as text; the rest is never read. */
async function excerptOf(res: Response, limit = RESPONSE_EXCERPT_BYTES): Promise<string | null> {
  if (!res.body) return null;
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  if (size === 0) return null;
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  return storable(new TextDecoder().decode(all.subarray(0, Math.min(size, limit))));
}

export type WebhookRequest = { url: string; id: string; body: string; signers: Webhook[] };

/** Sends one attempt and says how it went; it never throws. */
export async function sendWebhook(
  request: WebhookRequest,
  options: { policy: SsrfPolicy; timeoutMs?: number; signal?: AbortSignal },
): Promise<AttemptOutcome> {
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  let target: CheckedTarget;
  try {
    target = await checkTarget(request.url, options.policy);
  } catch (error) {
    const message = error instanceof RefusedTarget ? error.message : `Refused: ${String(error)}`;
    return { ok: false, status: null, latencyMs: latency(), error: message, excerpt: null };
  }
  const timeout = AbortSignal.timeout(options.timeoutMs ?? WEBHOOK_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  // Signed as it leaves: a fresh timestamp (the receiver's clock, not the app's test clock) on each attempt.
  const at = new Date();
  const signature = signatureOf(request.signers, request.id, at, request.body);
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const pinned = pinnedFetch(target);
  try {
    const res = await fetch(pinned.url, {
      method: 'POST',
      redirect: 'manual',
      signal,
      headers: {
        host: target.url.host,
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        'webhook-id': request.id,
        'webhook-timestamp': timestamp,
        'webhook-signature': signature,
      },
      body: request.body,
      ...pinned.tls,
    });
    const excerpt = await excerptOf(res).catch(() => null);
    const ok = res.status >= 200 && res.status < 300;
    // The Location is the receiver's text too: only its first 1 KB is kept.
    const error = ok
      ? null
      : res.status >= 300 && res.status < 400
        ? storable(`Redirect not followed (${res.status} to ${res.headers.get('location') ?? 'nowhere'})`)
        : `HTTP ${res.status}`;
    return { ok, status: res.status, latencyMs: latency(), error, excerpt };
  } catch (error) {
    const timedOut = timeout.aborted;
    const message = timedOut
      ? `Timed out after ${options.timeoutMs ?? WEBHOOK_TIMEOUT_MS} ms`
      : storable(error instanceof Error ? error.message : String(error));
    return { ok: false, status: null, latencyMs: latency(), error: message, excerpt: null };
  }
}
