import { AppError } from '@medlocker/core';
import { generateRegistrationOptions, verifyRegistrationResponse } from '@simplewebauthn/server';
import { audit } from '../../audit/audit.ts';
import type { StaffActor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import type { In, Out, Service } from '../../context/method.ts';
import { liveOf } from '../../live/live.ts';
import { sealingContexts } from '../../secrets/sealed-columns.ts';
import { createSecretBox } from '../../secrets/secret-box.ts';
import { authMessages, authPolicy } from '../../sessions/policy.ts';
import {
  completeSetupSession,
  revokeUserSessions,
  setSessionChallenge,
  takeSessionChallenge,
} from '../../sessions/sessions.ts';
import { findUserById, toUser } from '../users/index.ts';
import { type Site, secondFactorsResetMail } from './mails.ts';
import {
  newRecoveryCodes,
  newTotpSecret,
  recoveryCodeHash,
  relyingPartyOf,
  totpStepOf,
  totpUri,
} from './second-factor-codes.ts';
import {
  deleteAllFactors,
  deleteFactor,
  factorsOf,
  insertPasskeyFactor,
  insertTotpFactor,
  recoveryCodesLeft,
  replaceRecoveryCodes,
  type StoredFactor,
  secondFactorRequired,
} from './second-factor-repository.ts';

const listed = ({ id, kind, name, created, lastUsed }: StoredFactor) => ({ id, kind, name, created, lastUsed });

/** The user a self-or-support method is about: one's own, or (support staff only) anyone's. */
function subjectOf(actor: StaffActor, userId: string | undefined): string {
  if (userId === undefined || userId === actor.userId) return actor.userId;
  if (actor.kind !== 'support') throw new AppError('NOT_FOUND', `User ${userId} not found`);
  return userId;
}

export const listSecondFactors: Service<'auth/listSecondFactors'> = async (deps, actor, input) => {
  const userId = subjectOf(actor, input.userId);
  if (!(await findUserById(deps.db, userId))) throw new AppError('NOT_FOUND', `User ${userId} not found`);
  return {
    factors: (await factorsOf(deps.db, userId)).map(listed),
    recoveryCodesLeft: await recoveryCodesLeft(deps.db, userId),
    required: await secondFactorRequired(deps.db, userId),
  };
};

export const beginTotpSetup: Service<'auth/beginTotpSetup'> = async (deps, actor, _input) => {
  const secret = newTotpSecret();
  return { secret, uri: totpUri(secret, actor.email, deps.config.productName) };
};

const wrongCode = () =>
  new AppError('VALIDATION', authMessages.invalidSecondFactor, [
    { path: 'code', id: 'INVALID_CODE', message: 'That code is not right. Enter the 6 digits your app shows now.' },
  ]);

/**
 * A factor added: recovery codes when the user has none left (shown this once), a session limited to
 * setting one up becomes a full one, and the audit log says which kind and name.
 */
async function factorAdded(deps: AppDeps, actor: StaffActor, factor: StoredFactor, method: string) {
  const now = deps.now();
  let recoveryCodes: string[] | null = null;
  if ((await recoveryCodesLeft(deps.db, actor.userId)) === 0) {
    recoveryCodes = newRecoveryCodes();
    const hashes = recoveryCodes.map((c) => recoveryCodeHash(actor.userId, c));
    await replaceRecoveryCodes(deps.db, actor.userId, hashes, now);
  }
  if (await completeSetupSession(deps.db, actor.sessionId, now, method)) liveOf(deps).accessChanged(actor.userId);
  await audit(deps.db, deps, actor, {
    action: 'auth.secondFactor.added',
    entityType: 'user',
    entityId: actor.userId,
    details: { factorId: factor.id, kind: factor.kind, name: factor.name, recoveryCodesIssued: recoveryCodes !== null },
  });
  return { factor: listed(factor), recoveryCodes };
}

export const finishTotpSetup: Service<'auth/finishTotpSetup'> = async (deps, actor, input) => {
  const now = deps.now();
  const secret = input.secret.replace(/\s+/g, '').toUpperCase();
  const step = totpStepOf(secret, input.code.trim(), now);
  if (step === null) throw wrongCode();
  const id = Bun.randomUUIDv7();
  const sealedSecret = createSecretBox(deps.config.secretsKey).seal(secret, sealingContexts.totpSecret(id));
  const name = input.name.trim();
  await insertTotpFactor(deps.db, { id, userId: actor.userId, name, sealedSecret, step, now });
  const factor = (await factorsOf(deps.db, actor.userId)).find((f) => f.id === id);
  if (!factor) throw new AppError('INTERNAL', 'The new factor was not stored');
  return factorAdded(deps, actor, factor, 'otp');
};

export async function beginPasskeySetup(
  deps: AppDeps,
  actor: StaffActor,
  _input: In<'auth/beginPasskeySetup'>,
  site: Site,
): Out<'auth/beginPasskeySetup'> {
  const { rpID, rpName } = relyingPartyOf(deps, site);
  const user = await findUserById(deps.db, actor.userId);
  if (!user) throw new AppError('NOT_FOUND', `User ${actor.userId} not found`);
  const existing = (await factorsOf(deps.db, actor.userId)).filter((f) => f.credentialId !== null);
  const options = await generateRegistrationOptions({
    rpName,
    rpID,
    userName: user.email,
    userDisplayName: toUser(user).name,
    userID: new TextEncoder().encode(actor.userId),
    attestationType: 'none',
    // The same authenticator is not registered twice.
    excludeCredentials: existing.map((f) => ({ id: f.credentialId ?? '', transports: f.transports as never })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
  await setSessionChallenge(deps.db, actor.sessionId, options.challenge, deps.now() + authPolicy.webAuthnChallengeMs);
  return { options: options as unknown as { challenge: string; [k: string]: unknown } };
}

const passkeyRefused = () =>
  new AppError('VALIDATION', 'The passkey could not be added. Please try again.', [
    { path: 'response', id: 'INVALID_PASSKEY', message: 'The passkey could not be added. Please try again.' },
  ]);

export async function finishPasskeySetup(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'auth/finishPasskeySetup'>,
  site: Site,
): Out<'auth/finishPasskeySetup'> {
  const now = deps.now();
  const challenge = await takeSessionChallenge(deps.db, actor.sessionId, now);
  if (!challenge) throw passkeyRefused();
  const { origin, rpID } = relyingPartyOf(deps, site);
  const verification = await verifyRegistrationResponse({
    response: input.response as never,
    expectedChallenge: challenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    requireUserVerification: false,
  }).catch(() => null);
  if (!verification?.verified) throw passkeyRefused();
  const { credential } = verification.registrationInfo;
  const id = Bun.randomUUIDv7();
  try {
    await insertPasskeyFactor(deps.db, {
      id,
      userId: actor.userId,
      name: input.name.trim(),
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      signCount: credential.counter,
      transports: credential.transports ?? [],
      now,
    });
  } catch {
    // The credential id is unique: this passkey is already someone's factor.
    throw passkeyRefused();
  }
  const factor = (await factorsOf(deps.db, actor.userId)).find((f) => f.id === id);
  if (!factor) throw new AppError('INTERNAL', 'The new factor was not stored');
  return factorAdded(deps, actor, factor, 'hwk');
}

/** Removes one of one's own factors; never the last while policy requires one (checked under a lock). */
export const removeSecondFactor: Service<'auth/removeSecondFactor'> = async (deps, actor, input) => {
  const removed = await deps.db.transaction().execute(async (tx) => {
    const factors = await factorsOf(tx, actor.userId, { lock: true });
    if (!factors.some((f) => f.id === input.id)) throw new AppError('NOT_FOUND', 'Second factor not found');
    if (factors.length === 1 && (await secondFactorRequired(tx, actor.userId)))
      throw new AppError('CONFLICT', authMessages.lastSecondFactor);
    const factor = await deleteFactor(tx, actor.userId, input.id);
    // No factor left: the recovery codes that stood in for one go too.
    if (factors.length === 1) await deleteAllFactors(tx, actor.userId);
    await audit(tx, deps, actor, {
      action: 'auth.secondFactor.removed',
      entityType: 'user',
      entityId: actor.userId,
      details: { factorId: input.id, kind: factor?.kind, name: factor?.name },
    });
    return factor;
  });
  if (!removed) throw new AppError('NOT_FOUND', 'Second factor not found');
  return { ok: true };
};

export const regenerateRecoveryCodes: Service<'auth/regenerateRecoveryCodes'> = async (deps, actor, _input) => {
  if ((await factorsOf(deps.db, actor.userId)).length === 0)
    throw new AppError('CONFLICT', 'Add a passkey or an authenticator app first: recovery codes stand in for one.');
  const recoveryCodes = newRecoveryCodes();
  const hashes = recoveryCodes.map((c) => recoveryCodeHash(actor.userId, c));
  await deps.db.transaction().execute(async (tx) => {
    await replaceRecoveryCodes(tx, actor.userId, hashes, deps.now());
    await audit(tx, deps, actor, {
      action: 'auth.recoveryCodes.regenerated',
      entityType: 'user',
      entityId: actor.userId,
    });
  });
  return { recoveryCodes };
};

/**
 * Support's way out for a user who lost their device: every factor and recovery code goes, every session
 * ends (whoever holds one must sign in again and, where policy wants one, set up a new factor), and the
 * user is told by email, so a reset they did not ask for does not go unnoticed.
 */
export const resetSecondFactors: Service<'auth/resetSecondFactors'> = async (deps, actor, input) => {
  const user = await findUserById(deps.db, input.userId);
  if (!user) throw new AppError('NOT_FOUND', `User ${input.userId} not found`);
  const removed = await deps.db.transaction().execute(async (tx) => {
    const count = await deleteAllFactors(tx, user.id);
    await revokeUserSessions(tx, user.id, deps.now());
    await audit(tx, deps, actor, {
      action: 'auth.secondFactor.reset',
      entityType: 'user',
      entityId: user.id,
      details: { removed: count },
    });
    return count;
  });
  liveOf(deps).accessChanged(user.id);
  deps.mailer.send(secondFactorsResetMail(user.email, deps.config.productName)).catch((error: unknown) =>
    deps.logger.error('second-factor reset email failed', {
      requestId: actor.origin.requestId,
      userId: user.id,
      error: error instanceof Error ? error.message : String(error),
    }),
  );
  return { ok: true, removed };
};
