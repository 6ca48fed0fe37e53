import { AppError, type SecondFactorMethod } from '@medlocker/core';
import { generateAuthenticationOptions, verifyAuthenticationResponse } from '@simplewebauthn/server';
import { audit } from '../../audit/audit.ts';
import type { Actor, StaffActor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import type { In, Out } from '../../context/method.ts';
import { sealingContexts } from '../../secrets/sealed-columns.ts';
import { createSecretBox } from '../../secrets/secret-box.ts';
import { authPolicy } from '../../sessions/policy.ts';
import { sessionStepOf, setSessionChallenge, takeSessionChallenge } from '../../sessions/sessions.ts';
import type { Site } from './mails.ts';
import { looksLikeTotp, recoveryCodeHash, relyingPartyOf, totpStepOf } from './second-factor-codes.ts';
import {
  claimTotpStep,
  factorsOf,
  recordPasskeyUse,
  recoveryCodesLeft,
  type StoredFactor,
  secondFactorRequired,
  spendRecoveryCode,
} from './second-factor-repository.ts';

/**
 * What a password user's sign-in needs after the right password: their second factor when they have one
 * (whatever the policy: a factor once set up is always asked for), setting one up when policy requires
 * one and they have none, else nothing. Single-sign-on users never come here: their provider decides.
 */
export async function secondFactorStepFor(
  deps: AppDeps,
  userId: string,
): Promise<{ pending: 'second_factor'; methods: SecondFactorMethod[] } | { pending: 'setup' } | null> {
  const factors = await factorsOf(deps.db, userId);
  if (factors.length > 0) {
    const methods: SecondFactorMethod[] = [];
    if (factors.some((f) => f.kind === 'passkey')) methods.push('passkey');
    if (factors.some((f) => f.kind === 'totp')) methods.push('totp');
    if ((await recoveryCodesLeft(deps.db, userId)) > 0) methods.push('recovery');
    return { pending: 'second_factor', methods };
  }
  return (await secondFactorRequired(deps.db, userId)) ? { pending: 'setup' } : null;
}

/** A session that has proved the password and waits for the second factor, or a 409. */
async function awaitingSecondFactor(deps: AppDeps, actor: StaffActor): Promise<void> {
  const step = await sessionStepOf(deps.db, actor.sessionId);
  if (step?.pending !== 'second_factor')
    throw new AppError('CONFLICT', 'This session is not waiting for a second factor');
}

export async function beginPasskeySignIn(
  deps: AppDeps,
  actor: StaffActor,
  _input: In<'auth/beginPasskeySignIn'>,
  site: Site,
): Out<'auth/beginPasskeySignIn'> {
  await awaitingSecondFactor(deps, actor);
  const passkeys = (await factorsOf(deps.db, actor.userId)).filter((f) => f.kind === 'passkey');
  const options = await generateAuthenticationOptions({
    rpID: relyingPartyOf(deps, site).rpID,
    allowCredentials: passkeys.map((f) => ({ id: f.credentialId ?? '', transports: f.transports as never })),
    userVerification: 'preferred',
  });
  await setSessionChallenge(deps.db, actor.sessionId, options.challenge, deps.now() + authPolicy.webAuthnChallengeMs);
  return { options: options as unknown as { challenge: string; [k: string]: unknown } };
}

/** Which factor answered, or null: an app's code, a recovery code, or a passkey's signature. */
export type SecondFactorProof = { method: 'otp' | 'recovery' | 'hwk'; factorId: string | null } | null;

async function checkTotp(
  deps: AppDeps,
  factors: StoredFactor[],
  code: string,
  now: number,
): Promise<SecondFactorProof> {
  const box = createSecretBox(deps.config.secretsKey);
  for (const factor of factors) {
    if (factor.kind !== 'totp' || !factor.totpSecretSealed) continue;
    const secret = box.open(factor.totpSecretSealed, sealingContexts.totpSecret(factor.id));
    const step = totpStepOf(secret, code, now);
    // A code whose step was already taken (the same code again, or an older one) is refused.
    if (step !== null && (await claimTotpStep(deps.db, factor.id, step, now)))
      return { method: 'otp', factorId: factor.id };
  }
  return null;
}

async function checkPasskey(
  deps: AppDeps,
  actor: StaffActor,
  factors: StoredFactor[],
  response: NonNullable<In<'auth/verifySecondFactor'>['passkey']>,
  site: Site,
): Promise<SecondFactorProof> {
  const now = deps.now();
  const challenge = await takeSessionChallenge(deps.db, actor.sessionId, now);
  const factor = factors.find((f) => f.kind === 'passkey' && f.credentialId === response.id);
  if (!challenge || !factor?.credentialId || !factor.publicKey) return null;
  const { origin, rpID } = relyingPartyOf(deps, site);
  const verification = await verifyAuthenticationResponse({
    response: response as never,
    expectedChallenge: challenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    credential: {
      id: factor.credentialId,
      publicKey: new Uint8Array(Buffer.from(factor.publicKey, 'base64url')),
      counter: factor.signCount ?? 0,
      transports: factor.transports as never,
    },
    requireUserVerification: false,
  }).catch(() => null);
  if (!verification?.verified) return null;
  await recordPasskeyUse(deps.db, factor.id, verification.authenticationInfo.newCounter, now);
  return { method: 'hwk', factorId: factor.id };
}

/** Checks the answer of the second-factor step against the user's factors; null when it is not right. */
export async function checkSecondFactor(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'auth/verifySecondFactor'>,
  site: Site,
): Promise<SecondFactorProof> {
  await awaitingSecondFactor(deps, actor);
  const factors = await factorsOf(deps.db, actor.userId);
  const now = deps.now();
  if (input.passkey) return checkPasskey(deps, actor, factors, input.passkey, site);
  const code = input.code?.trim() ?? '';
  if (!code) {
    throw new AppError('VALIDATION', 'Please enter a value', [
      { path: 'code', id: 'REQUIRED', message: 'Please enter a value' },
    ]);
  }
  if (looksLikeTotp(code)) return checkTotp(deps, factors, code.replace(/\s+/g, ''), now);
  const spent = await spendRecoveryCode(deps.db, actor.userId, recoveryCodeHash(actor.userId, code), now);
  return spent ? { method: 'recovery', factorId: null } : null;
}

/** The audit entry of a second-factor step that failed. */
export async function auditSecondFactorFailure(
  deps: AppDeps,
  actor: Actor,
  userId: string,
  lockedUntil: number | null,
) {
  await audit(deps.db, deps, actor, {
    action: 'auth.secondFactor.failed',
    entityType: 'user',
    entityId: userId,
    details: { lockedUntil },
  });
}
