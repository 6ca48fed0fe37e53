import { randomBytes } from 'node:crypto';
import { AppError, validationMessages } from '@medlocker/core';
import type { Actor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import type { Service } from '../../context/method.ts';
import { type Db, findOrderForLink, findShortUrl, insertShortUrl } from './repository.ts';

/**
 * How long a link lives when its order has no expiry yet (not loaded) or there is no order: the longest
 * collection window (docs/decisions/messaging.md, Short links). Once the order has an expiry, that one counts.
 */
export const SHORT_URL_CAP_MS = 30 * 24 * 60 * 60 * 1000;

/** 16 bytes from the CSPRNG (128 bits, twice SPEC's 64), as 22 URL-safe characters. */
export const newShortCode = (): string => randomBytes(16).toString('base64url');

/** The address the link is shared as: PUBLIC_URL's first entry, else the server's own origin. */
export const shortUrlOf = (deps: AppDeps, code: string, fallbackOrigin?: string): string =>
  `${(deps.config.publicUrls[0] ?? fallbackOrigin ?? '').replace(/\/+$/, '')}/u/${code}`;

const badTarget = () =>
  new AppError('VALIDATION', validationMessages.INVALID_FORMAT, [
    { path: 'target', id: 'INVALID_FORMAT', message: validationMessages.INVALID_FORMAT },
  ]);

/**
 * A target as stored: a path on this site (`/…`, never `//host` or `/\host`, which browsers read as
 * another host), or an absolute address on one of the PUBLIC_URL origins; anything else is refused so
 * a short link is never an open redirect.
 */
export function normaliseTarget(deps: AppDeps, target: string): string {
  const t = target.trim();
  // Control characters (a newline in a Location header, a tab browsers strip) never belong in a link.
  if ([...t].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) throw badTarget();
  if (t.startsWith('/')) {
    if (t.startsWith('//') || t.startsWith('/\\')) throw badTarget();
    return t;
  }
  if (!URL.canParse(t)) throw badTarget();
  const u = new URL(t);
  const origins = new Set(deps.config.publicUrls.map((p) => new URL(p).origin));
  if (!origins.has(u.origin)) throw badTarget();
  return u.href;
}

/**
 * Stores a short link (the message sender calls this inside its transaction). `expiresAt` is the
 * order's expiry when known; without it the link lives SHORT_URL_CAP_MS, and a link to an order
 * follows the order's expiry at each visit anyway (findLiveTarget).
 */
export async function createShortUrl(
  db: Db,
  deps: Pick<AppDeps, 'now'>,
  input: { target: string; orderId?: string | null; businessId?: string | null; expiresAt?: number | null },
): Promise<{ code: string; expiresAt: number }> {
  const now = deps.now();
  const code = newShortCode();
  let businessId = input.businessId ?? null;
  let expiresAt = input.expiresAt ?? null;
  if (input.orderId && (businessId === null || expiresAt === null)) {
    const order = await findOrderForLink(db, input.orderId);
    businessId ??= order?.businessId ?? null;
    expiresAt ??= order?.expiresAt ?? null;
  }
  expiresAt ??= now + SHORT_URL_CAP_MS;
  await insertShortUrl(db, { code, target: input.target, orderId: input.orderId ?? null, businessId, expiresAt, now });
  return { code, expiresAt };
}

/**
 * The target of a live link, or null. A link to an order expires with the order: its current
 * `expires_at` (an extended window extends the link) once it has one, else the link's own cap.
 */
export async function findLiveTarget(db: Db, code: string, now: number): Promise<string | null> {
  const row = await findShortUrl(db, code);
  if (!row) return null;
  const expiresAt = row.orderExpiresAt ?? row.expiresAt;
  return expiresAt > now ? row.target : null;
}

export const createUrl: Service<'url/createUrl'> = async (deps, _actor, input) => {
  const target = normaliseTarget(deps, input.target);
  let order: { businessId: string; expiresAt: number | null } | undefined;
  if (input.orderId) {
    // The access check already refused a pharmacy user an order of another business; support gets the same 404 for none.
    order = await findOrderForLink(deps.db, input.orderId);
    if (!order) throw new AppError('NOT_FOUND', `No order with id ${input.orderId}`);
  }
  const link = await createShortUrl(deps.db, deps, {
    target,
    orderId: input.orderId ?? null,
    businessId: order?.businessId ?? null,
    expiresAt: order?.expiresAt ?? null,
  });
  return { code: link.code, url: shortUrlOf(deps, link.code), expiresAt: link.expiresAt };
};

export const getUrl: Service<'url/getUrl', Actor> = async (deps, _actor, input) => {
  const target = await findLiveTarget(deps.db, input.code, deps.now());
  if (target === null) throw new AppError('NOT_FOUND', 'This link is unknown or has expired');
  return { target };
};
