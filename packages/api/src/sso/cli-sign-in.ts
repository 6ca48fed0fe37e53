import { randomInt } from 'node:crypto';
import { AppError } from '@medlocker/core';
import type { Actor, StaffActor } from '../actor.ts';
import { audit } from '../audit/audit.ts';
import { authPolicy } from '../auth/policy.ts';
import { createSession } from '../auth/sessions.ts';
import { hashToken, newToken } from '../auth/tokens.ts';
import type { AppDeps } from '../deps.ts';
import { createSecretBox } from '../secrets/secret-box.ts';
import {
  approveCliSignInRow,
  cliSignInPending,
  deleteCliSignInsBefore,
  findOpenCliSignIn,
  insertCliSignIn,
  takeApprovedCliSignIn,
} from './repository.ts';

/*
 * The command line's browser hand-off (issue 22): a device code (RFC 8628 in spirit). The cli keeps the
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
const context = (id: string) => `cli_sign_ins.token:${id}`;
const invalidCode = () =>
  new AppError('BAD_REQUEST', 'invalid code', [{ path: 'userCode', id: 'INVALID_CODE', message: 'invalid code' }]);

export async function beginCliSignIn(deps: AppDeps, origin: string) {
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

export async function approveCliSignIn(deps: AppDeps, actor: StaffActor, userCode: string) {
  const now = deps.now();
  const code = userCode.trim().toUpperCase();
  const row = await findOpenCliSignIn(deps.db, code, now);
  if (!row) throw invalidCode();
  const { token, session } = await createSession(deps.db, actor.userId, now, {
    ip: actor.origin.ip,
    userAgent: 'medlocker cli',
  });
  const approved = await approveCliSignInRow(deps.db, row.id, {
    userId: actor.userId,
    tokenSealed: createSecretBox(deps.config.secretsKey).seal(token, context(row.id)),
    sessionExpires: session.expiresAt,
  });
  if (!approved) throw invalidCode();
  await audit(deps.db, deps, actor, {
    action: 'auth.cli.approved',
    entityType: 'user',
    entityId: actor.userId,
    details: { sessionId: session.id },
  });
  return { ok: true as const };
}

export async function pollCliSignIn(deps: AppDeps, _actor: Actor, deviceCode: string) {
  const now = deps.now();
  const hash = hashToken(deviceCode);
  // Taken once: the row goes as the token is handed out.
  const taken = await takeApprovedCliSignIn(deps.db, hash);
  if (taken?.token_sealed) {
    const token = createSecretBox(deps.config.secretsKey).open(taken.token_sealed, context(taken.id));
    return { status: 'approved' as const, token, expires: taken.session_expires ?? now + authPolicy.sessionAbsoluteMs };
  }
  const pending = await cliSignInPending(deps.db, hash, now);
  return { status: pending ? ('pending' as const) : ('expired' as const) };
}
