import { randomInt } from 'node:crypto';
import { AppError, counted } from '@medlocker/core';
import { audit } from '../../audit/audit.ts';
import type { Actor, StaffActor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import { addressKey } from '../../rate-limits/address-key.ts';
import { type Bucket, reserveToken } from '../../rate-limits/repository.ts';
import { sealingContexts } from '../../secrets/sealed-columns.ts';
import { createSecretBox } from '../../secrets/secret-box.ts';
import { authPolicy } from '../../sessions/policy.ts';
import { createSession } from '../../sessions/sessions.ts';
import { hashToken, newToken } from '../../sessions/tokens.ts';
import {
  claimCliSignIn,
  cliSignInPending,
  deleteCliSignInsBefore,
  insertCliSignIn,
  storeCliSignInToken,
  takeApprovedCliSignIn,
} from './repository.ts';

/*
 * The command line's browser hand-off: a device code (RFC 8628 in spirit). The cli keeps the
 * long random device code and polls with it; the person types nothing, they open the console's
 * /cli?code=… page, compare the short code with the one the terminal shows, and approve. The
 * session made then is sealed in the row until the cli collects it, once.
 */

export const CLI_SIGN_IN_TTL_MS = 10 * 60_000;
const ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
const userCodeOf = () => {
  let code = '';
  for (let i = 0; i < 8; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return `${code.slice(0, 4)}-${code.slice(4)}`;
};
/**
 * Limits, in the database (rate_buckets, shared by every api process): starting a sign-in,
 * 10 per 10 minutes per client address (each writes a row); polling, 60 a minute per address (the cli
 * polls every 2 s); approving, 10 per 10 minutes per signed-in user (a code is 8 letters, but guessing
 * one another person's terminal shows is not to be left unbounded). In-process calls (tests, jobs) have
 * no address and are limited per user only.
 */
export const cliSignInLimits = {
  begin: { capacity: 10, perMs: 10 * 60_000 },
  poll: { capacity: 60, perMs: 60_000 },
  approve: { capacity: 10, perMs: 10 * 60_000 },
} satisfies Record<string, Bucket>;

async function limit(deps: AppDeps, key: string, bucket: Bucket, what: string) {
  const wait = await reserveToken(deps.db, key, bucket, deps.now());
  if (wait === null) return;
  const minutes = Math.max(1, Math.ceil(wait / 60));
  throw new AppError(
    'RATE_LIMITED',
    `Too many ${what}. Please try again in ${counted(minutes, 'minute')}.`,
    undefined,
    wait,
  );
}

const context = sealingContexts.cliSessionToken;
const invalidCode = () =>
  new AppError('BAD_REQUEST', 'invalid code', [{ path: 'userCode', id: 'INVALID_CODE', message: 'invalid code' }]);

export async function beginCliSignIn(deps: AppDeps, actor: Actor, origin: string) {
  if (actor.origin.ip !== null)
    await limit(deps, `cli:begin:${addressKey(actor.origin.ip)}`, cliSignInLimits.begin, 'sign-ins from this address');
  const now = deps.now();
  await deleteCliSignInsBefore(deps.db, now);
  const deviceCode = newToken();
  const userCode = userCodeOf();
  await insertCliSignIn(deps.db, {
    deviceHash: hashToken(deviceCode),
    userCode,
    now,
    expires: now + CLI_SIGN_IN_TTL_MS,
  });
  return {
    deviceCode,
    userCode,
    verificationUrl: `${origin}/cli?code=${encodeURIComponent(userCode)}`,
    expires: now + CLI_SIGN_IN_TTL_MS,
    intervalSeconds: 2,
  };
}

/**
 * Approves a code for the signed-in user. The row is claimed first, in one conditional UPDATE, and the
 * session made and sealed in the same transaction: a second approval (or a double click) finds the row
 * taken and makes nothing, and a failure leaves no session behind that nobody can collect.
 */
export async function approveCliSignIn(deps: AppDeps, actor: StaffActor, userCode: string) {
  await limit(deps, `cli:approve:${actor.userId}`, cliSignInLimits.approve, 'sign-in approvals');
  const now = deps.now();
  const code = userCode.trim().toUpperCase();
  const sessionId = await deps.db.transaction().execute(async (trx) => {
    const row = await claimCliSignIn(trx, code, actor.userId, now);
    if (!row) throw invalidCode();
    const { token, session } = await createSession(trx, actor.userId, now, {
      ip: actor.origin.ip,
      userAgent: 'medlocker cli',
    });
    const stored = await storeCliSignInToken(trx, row.id, {
      userId: actor.userId,
      tokenSealed: createSecretBox(deps.config.secretsKey).seal(token, context(row.id)),
      sessionExpires: session.expiresAt,
    });
    if (!stored) throw invalidCode();
    return session.id;
  });
  await audit(deps.db, deps, actor, {
    action: 'auth.cli.approved',
    entityType: 'user',
    entityId: actor.userId,
    details: { sessionId },
  });
  return { ok: true as const };
}

export async function pollCliSignIn(deps: AppDeps, actor: Actor, deviceCode: string) {
  if (actor.origin.ip !== null)
    await limit(deps, `cli:poll:${addressKey(actor.origin.ip)}`, cliSignInLimits.poll, 'polls from this address');
  const now = deps.now();
  const hash = hashToken(deviceCode);
  // Taken once: the row goes as the token is handed out.
  const taken = await takeApprovedCliSignIn(deps.db, hash);
  if (taken?.tokenSealed) {
    const token = createSecretBox(deps.config.secretsKey).open(taken.tokenSealed, context(taken.id));
    return { status: 'approved' as const, token, expires: taken.sessionExpires ?? now + authPolicy.sessionAbsoluteMs };
  }
  const pending = await cliSignInPending(deps.db, hash, now);
  return { status: pending ? ('pending' as const) : ('expired' as const) };
}
