import {
  AppError,
  codeTextIn,
  counted,
  greetingName,
  type PatientSessionInfo,
  patientAuthPolicy,
} from '@medlocker/core';
import { audit } from '../../audit/audit.ts';
import type { Actor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import type { In, Out, Service } from '../../context/method.ts';
import { queueMessages } from '../../outbox/index.ts';
import { hashCode, newCode, sameHash } from '../../secrets/one-time-codes.ts';
import {
  createPatientSession,
  endPatientSessionByToken,
  type NewPatientSession,
  type PatientPrincipal,
} from '../../sessions/patient-sessions.ts';
import { checkResendWait, codeLocales } from './code-resend.ts';
import { type GiveBack, takeAddress } from './patient-address-limits.ts';
import {
  clearWrongTries,
  findOrderPatient,
  findVerification,
  listAddedMobiles,
  lockVerification,
  type OrderPatient,
  reserveTry,
  returnTry,
  setCode,
  spendCode,
  type Verification,
} from './patient-repository.ts';

/*
 * A patient proves who they are for the order their link names (docs/decisions/patients.md, "Patient session"):
 * the date of birth on record, or a code texted to the patient's mobile. Every try is
 * counted before it is checked; 5 wrong ones (dates and codes together) lock the order's link for 15
 * minutes. A wrong date, a date asked of a patient with none on record, and a wrong or late code get one
 * and the same answer, so nothing is learnt about the patient beyond what the link shows. Beside each
 * order's lock, one client address may get only so many wrong answers (and unknown orders) and codes
 * texted across every order, so it cannot try many orders instead of one.
 */

const policy = patientAuthPolicy;

const notFound = (orderId: string) => new AppError('NOT_FOUND', `No order with id ${orderId}`);

function locked(lockedUntil: number | null, now: number): AppError {
  const seconds = Math.max(1, Math.ceil(((lockedUntil ?? now + policy.lockMinutes * 60_000) - now) / 1000));
  const minutes = Math.ceil(seconds / 60);
  return new AppError(
    'RATE_LIMITED',
    `Too many wrong tries: for your security this link is locked. Please try again in ${counted(minutes, 'minute')}.`,
    undefined,
    seconds,
  );
}

function notConfirmed(path: 'dateOfBirth' | 'code', failures: number): AppError {
  const left = Math.max(0, policy.maxWrongTries - failures);
  const what = path === 'code' ? 'That code is wrong or has expired' : 'We could not confirm your details';
  const message =
    left === 0
      ? `${what}. For your security this link is now locked for ${policy.lockMinutes} minutes.`
      : `${what}. You have ${counted(left, 'try', 'tries')} left before this link is locked for ${policy.lockMinutes} minutes.`;
  return new AppError('VALIDATION', message, [{ path, id: 'IDENTITY_NOT_CONFIRMED', message }]);
}

/** The order and its (not deleted) patient, or 404 the same for both. */
export async function orderPatient(deps: AppDeps, orderId: string) {
  const found = await findOrderPatient(deps.db, orderId);
  if (!found || found.deletedAt !== null) throw notFound(orderId);
  return found;
}

export type Proven = { session: NewPatientSession; info: PatientSessionInfo };

/** The patient's session once they proved who they are, by any way (audited with the way). */
export async function startSession(
  deps: AppDeps,
  actor: Actor,
  found: OrderPatient,
  method: 'dateOfBirth' | 'sms' | 'nhsLogin',
  now: number,
): Promise<Proven> {
  await clearWrongTries(deps.db, found.orderId, now);
  const session = await createPatientSession(
    deps.db,
    { businessId: found.businessId, patientId: found.patientId, orderId: found.orderId, method },
    now,
    { ip: actor.origin.ip, userAgent: actor.origin.userAgent },
  );
  await audit(deps.db, deps, actor, {
    action: 'patient.session.start',
    entityType: 'patient',
    entityId: found.patientId,
    businessId: found.businessId,
    who: { userId: null, display: `patient ${found.patientId}` },
    details: { orderId: found.orderId, method },
  });
  return {
    session,
    info: {
      expires: session.expires,
      idleExpires: session.idleExpires,
      givenName: greetingName(found.givenName, found.fullName),
    },
  };
}

/**
 * Counts the try, or refuses it unchecked when the link is locked (then the address's token comes back:
 * nothing was checked). Answers the count with this try.
 */
export async function takeTry(
  deps: AppDeps,
  actor: Actor,
  orderId: string,
  businessId: string,
  now: number,
  giveBack: GiveBack,
) {
  const reserved = await reserveTry(deps.db, orderId, now);
  if (!reserved.allowed) {
    await giveBack();
    await audit(deps.db, deps, actor, {
      action: 'patient.verify.locked',
      entityType: 'order',
      entityId: orderId,
      businessId,
    });
    throw locked(reserved.lockedUntil, now);
  }
  return reserved.failures;
}

async function refuse(
  deps: AppDeps,
  actor: Actor,
  found: { orderId: string; businessId: string },
  path: 'dateOfBirth' | 'code',
  failures: number,
): Promise<never> {
  await audit(deps.db, deps, actor, {
    action: 'patient.verify.failed',
    entityType: 'order',
    entityId: found.orderId,
    businessId: found.businessId,
    details: { method: path === 'code' ? 'sms' : 'dateOfBirth', failures },
  });
  throw notConfirmed(path, failures);
}

/** Date of birth: a session when it matches the patient's on record. */
export async function verifyPatient(deps: AppDeps, actor: Actor, input: In<'auth/verifyPatient'>): Promise<Proven> {
  const giveBack = await takeAddress(deps, actor, 'tries', input.orderId);
  const found = await orderPatient(deps, input.orderId);
  const now = deps.now();
  const failures = await takeTry(deps, actor, found.orderId, found.businessId, now, giveBack);
  if (found.dateOfBirth === null || found.dateOfBirth !== input.dateOfBirth) {
    return refuse(deps, actor, found, 'dateOfBirth', failures);
  }
  await giveBack();
  return startSession(deps, actor, found, 'dateOfBirth', now);
}

/**
 * The code's hash, bound to the order and to its patient as it was when the code was texted (one code
 * goes to each of that patient's mobiles): should the order move to another patient, a code texted to
 * the first one's phones opens nothing of the second's.
 */
const codeHash = (found: { orderId: string; patientId: string }, code: string) =>
  hashCode(`patient:${found.orderId}:${found.patientId}`, 'mobile', code);

/**
 * Texts a fresh code to the patient's mobile through the outbox (the job runner sends it): at most one
 * a minute and five an hour per order, none while the link is locked. A new code replaces the last.
 * Each call takes one of its address's hourly codes first, given back when nothing was texted for a
 * known order (an unknown order is a guess, and keeps it).
 */
export const verifySms: Service<'auth/verifySms', Actor> = async (deps, actor, input) => {
  const giveBack = await takeAddress(deps, actor, 'codes', input.orderId);
  const found = await orderPatient(deps, input.orderId);
  try {
    return await textCode(deps, actor, found);
  } catch (error) {
    // Nothing was texted (locked, too soon, no mobile): the address's token comes back.
    await giveBack();
    throw error;
  }
};

/** The per-order part of verifySms: the lock, the patient's mobiles, one a minute and five an hour. */
async function textCode(deps: AppDeps, actor: Actor, found: OrderPatient): Out<'auth/verifySms'> {
  const now = deps.now();
  await refuseWhileLocked(deps, found.orderId, now);
  const mobiles = await mobilesToText(deps, found);
  const code = newCode();
  const locales = await codeLocales(deps.db, found.businessId, found.patientId);
  const body = codeTextIn(locales, 'patientVerifyCode', {
    productName: deps.config.productName,
    code,
    minutes: policy.codeTtlMinutes,
  });
  await deps.db.transaction().execute(async (tx) => {
    const { sends, windowStart } = countSend(await lockVerification(tx, found.orderId, now), now);
    await setCode(tx, found.orderId, {
      codeHash: codeHash(found, code),
      expiresAt: now + policy.codeTtlMinutes * 60_000,
      sends,
      firstSendAt: windowStart,
      now,
    });
    await queueMessages(
      tx,
      mobiles.map((mobile) => ({
        businessId: found.businessId,
        message: {
          channel: 'sms' as const,
          recipient: mobile,
          templateKey: 'patientVerifyCode',
          body,
          patientId: found.patientId,
        },
        runAfter: now,
      })),
      now,
    );
    await audit(tx, deps, actor, {
      action: 'patient.verify.codeSent',
      entityType: 'order',
      entityId: found.orderId,
      businessId: found.businessId,
    });
  });
  return { sent: true, mobileEndings: mobiles.map((m) => m.slice(-3)), expiresInMinutes: policy.codeTtlMinutes };
}

/** 429 while the order's link is locked by wrong tries (nothing is checked then). */
export async function refuseWhileLocked(deps: AppDeps, orderId: string, now: number): Promise<void> {
  const current = await findVerification(deps.db, orderId);
  if (current?.lockedUntil != null && current.lockedUntil > now && current.failures >= policy.maxWrongTries) {
    throw locked(current.lockedUntil, now);
  }
}

/** The mobile on record and the verified ones the patient added, once each; 409 when there is none. */
async function mobilesToText(deps: AppDeps, found: OrderPatient): Promise<string[]> {
  const added = await listAddedMobiles(deps.db, found.businessId, found.patientId);
  const mobiles = [
    ...new Set([
      ...(found.mobileNumber ? [found.mobileNumber] : []),
      ...added.filter((m) => m.verifiedAt !== null).map((m) => m.mobile),
    ]),
  ];
  if (mobiles.length === 0) {
    throw new AppError(
      'CONFLICT',
      'We cannot text a code for this order: confirm your date of birth instead, or contact the pharmacy',
      [{ path: 'orderId', id: 'NO_MOBILE', message: 'No mobile number on record' }],
    );
  }
  return mobiles;
}

/** One more code for the link, or 429: at most one a minute and so many in an hour's window. */
function countSend(row: Verification, now: number): { sends: number; windowStart: number } {
  checkResendWait(row.lastSendAt, now);
  const hourAgo = now - 60 * 60_000;
  const windowStart = row.firstSendAt === null || row.firstSendAt <= hourAgo ? now : row.firstSendAt;
  const sends = windowStart === now ? 1 : row.codeSends + 1;
  if (sends > policy.maxCodesPerHour) {
    const wait = Math.ceil((windowStart + 60 * 60_000 - now) / 1000);
    const minutes = Math.ceil(wait / 60);
    throw new AppError(
      'RATE_LIMITED',
      `Too many codes were sent for this order. Please try again in ${counted(minutes, 'minute')}, or contact the pharmacy.`,
      undefined,
      wait,
    );
  }
  return { sends, windowStart };
}

/**
 * The texted code: a session when it is the order's current one, unexpired, for the mobile on record.
 * A right code that another answer spent first (two taps, two tabs) is what it is: not a wrong try,
 * and answered "already used" (a code opens one session).
 */
export async function verifySmsCode(deps: AppDeps, actor: Actor, input: In<'auth/verifySmsCode'>): Promise<Proven> {
  const giveBack = await takeAddress(deps, actor, 'tries', input.orderId);
  const found = await orderPatient(deps, input.orderId);
  const now = deps.now();
  const failures = await takeTry(deps, actor, found.orderId, found.businessId, now, giveBack);
  const row = await findVerification(deps.db, found.orderId);
  const hash = codeHash(found, input.code.trim());
  const live = row?.codeExpiresAt != null && now < row.codeExpiresAt;
  if (live && row?.codeHash != null && sameHash(hash, row.codeHash)) {
    if (await spendCode(deps.db, found.orderId, row.codeHash, now)) {
      await giveBack();
      return startSession(deps, actor, found, 'sms', now);
    }
    return codeUsed(deps, found.orderId, now, giveBack);
  }
  if (live && row?.spentCodeHash != null && sameHash(hash, row.spentCodeHash)) {
    return codeUsed(deps, found.orderId, now, giveBack);
  }
  return refuse(deps, actor, found, 'code', failures);
}

async function codeUsed(deps: AppDeps, orderId: string, now: number, giveBack: GiveBack): Promise<never> {
  await returnTry(deps.db, orderId, now);
  await giveBack();
  const message = 'That code has already been used. If this page has not opened your order, ask for a new code.';
  throw new AppError('CONFLICT', message, [{ path: 'code', id: 'CODE_USED', message }]);
}

/** The current session, as the patient page reads it. */
export const patientSessionInfo = (principal: PatientPrincipal): PatientSessionInfo => ({
  expires: principal.expires,
  idleExpires: principal.idleExpires,
  givenName: principal.givenName,
});

/** Ends a patient session (sign out on the patient page). */
export async function endPatientSession(deps: AppDeps, token: string | null): Out<'auth/endPatientSession'> {
  if (token) await endPatientSessionByToken(deps.db, token, deps.now());
  return { ok: true };
}
