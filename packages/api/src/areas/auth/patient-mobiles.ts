import { AppError, codeTextIn, type PatientMobile, patientAuthPolicy } from '@medlocker/core';
import { audit } from '../../audit/audit.ts';
import type { Actor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import type { In, Out, Service } from '../../context/method.ts';
import { queueMessages } from '../../outbox/index.ts';
import { hashCode, newCode, sameHash } from '../../secrets/one-time-codes.ts';
import { checkResendWait, codeLocales } from './code-resend.ts';
import {
  countPatientTexts,
  type Db,
  deletePatientMobile,
  findPatientMobileOnRecord,
  listAddedMobiles,
  lockPatientRow,
  markMobileVerified,
  takeMobileCodeTry,
  upsertPendingMobile,
} from './patient-repository.ts';

/*
 * The mobiles a patient session may use (SPEC §7 add/remove/list PatientMobile): besides the one on
 * record (the pharmacy's to change), a signed-in patient may add up to 3 others (a carer's, a new
 * phone), each proven by a code texted to it. Verified ones also receive the link's codes
 * (`auth/verifySms`), so the patient can get in from either phone.
 */

type PatientActor = Extract<Actor, { kind: 'patient' }>;

const policy = patientAuthPolicy;

const mobileHash = (patientId: string, mobile: string, code: string) =>
  hashCode(`patient-mobile:${patientId}:${mobile}`, 'mobile', code);

async function mobilesOf(db: Db, actor: PatientActor): Promise<PatientMobile[]> {
  const record = await findPatientMobileOnRecord(db, actor.businessId, actor.patientId);
  const added = await listAddedMobiles(db, actor.businessId, actor.patientId);
  const onRecord = record?.mobileNumber ?? null;
  return [
    ...(onRecord ? [{ mobileNumber: onRecord, onRecord: true, verified: true }] : []),
    ...added
      .filter((m) => m.mobile !== onRecord)
      .map((m) => ({ mobileNumber: m.mobile, onRecord: false, verified: m.verifiedAt !== null })),
  ];
}

export const listPatientMobile = async (
  deps: AppDeps,
  actor: PatientActor,
  _input: In<'auth/listPatientMobile'>,
): Out<'auth/listPatientMobile'> => ({ mobiles: await mobilesOf(deps.db, actor) });

/** Without a code: texts one to the new mobile. With it: the mobile is added, verified. */
export const addPatientMobile: Service<'auth/addPatientMobile', PatientActor> = async (deps, actor, input) => {
  if (input.code === undefined) {
    await textMobileCode(deps, actor, input.mobileNumber);
    return { mobiles: await mobilesOf(deps.db, actor), added: false };
  }
  return confirmMobileCode(deps, actor, input.mobileNumber, input.code);
};

/**
 * Texts a code to a new mobile, unless it is verified already. One patient's requests run one at a time
 * (the patient's row locked), so concurrent calls cannot all pass the checks before any of them has added
 * its mobile or queued its text.
 */
async function textMobileCode(deps: AppDeps, actor: PatientActor, mobile: string): Promise<void> {
  const now = deps.now();
  await deps.db.transaction().execute(async (tx) => {
    await lockPatientRow(tx, actor.businessId, actor.patientId);
    const current = await mobilesOf(tx, actor);
    const known = current.find((m) => m.mobileNumber === mobile);
    if (known?.verified) return;
    if (current.filter((m) => !m.onRecord).length >= policy.maxAddedMobiles && !known) {
      throw new AppError('CONFLICT', `You can add at most ${policy.maxAddedMobiles} mobiles: remove one first`);
    }
    await checkMobileCodeRate(tx, actor, mobile, now);
    const code = newCode();
    await upsertPendingMobile(tx, {
      businessId: actor.businessId,
      patientId: actor.patientId,
      mobile,
      codeHash: mobileHash(actor.patientId, mobile, code),
      expiresAt: now + policy.codeTtlMinutes * 60_000,
      now,
    });
    const body = codeTextIn(await codeLocales(tx, actor.businessId, actor.patientId), 'patientMobileCode', {
      productName: deps.config.productName,
      code,
      minutes: policy.codeTtlMinutes,
    });
    await queueMessages(
      tx,
      {
        businessId: actor.businessId,
        message: {
          channel: 'sms',
          recipient: mobile,
          templateKey: 'patientMobileCode',
          body,
          patientId: actor.patientId,
        },
        runAfter: now,
      },
      now,
    );
    await audit(tx, deps, actor, {
      action: 'patient.mobile.codeSent',
      entityType: 'patient',
      entityId: actor.patientId,
      businessId: actor.businessId,
    });
  });
}

/** One code a minute to a mobile, and so many an hour to new mobiles of one patient. */
async function checkMobileCodeRate(db: Db, actor: PatientActor, mobile: string, now: number): Promise<void> {
  const rows = await listAddedMobiles(db, actor.businessId, actor.patientId);
  checkResendWait(rows.find((r) => r.mobile === mobile)?.codeSentAt ?? null, now);
  // Adding, removing and adding again must not make the server text any number at will.
  if (
    (await countPatientTexts(db, actor.patientId, 'patientMobileCode', now - 60 * 60_000)) >= policy.maxCodesPerHour
  ) {
    throw new AppError(
      'RATE_LIMITED',
      'Too many codes were sent to new mobiles. Please try again in an hour.',
      undefined,
      60 * 60,
    );
  }
}

/** The code texted to a new mobile: right, unexpired and within its tries, the mobile is verified. */
async function confirmMobileCode(
  deps: AppDeps,
  actor: PatientActor,
  mobile: string,
  code: string,
): Out<'auth/addPatientMobile'> {
  const now = deps.now();
  const current = await mobilesOf(deps.db, actor);
  if (current.find((m) => m.mobileNumber === mobile)?.verified) return { mobiles: current, added: false };
  // The try is counted before the code is checked, so concurrent guesses share the 5 tries.
  const row = await takeMobileCodeTry(deps.db, actor.patientId, mobile, now);
  const right =
    row !== undefined &&
    row.codeHash !== null &&
    row.codeAttempts <= policy.maxMobileCodeTries &&
    row.codeExpiresAt !== null &&
    now < row.codeExpiresAt &&
    sameHash(mobileHash(actor.patientId, mobile, code.trim()), row.codeHash);
  // A right code that lost the race to another tap finds the mobile verified: that is its answer too.
  const verifiedMeanwhile = async () => {
    const mobiles = await mobilesOf(deps.db, actor);
    return mobiles.find((m) => m.mobileNumber === mobile)?.verified ? { mobiles, added: false } : undefined;
  };
  if (!row || !right) {
    const meanwhile = row?.verifiedAt != null ? await verifiedMeanwhile() : undefined;
    if (meanwhile) return meanwhile;
    const message = 'That code is wrong or has expired: check it, or ask for a new one';
    throw new AppError('VALIDATION', message, [{ path: 'code', id: 'IDENTITY_NOT_CONFIRMED', message }]);
  }
  if (!(await markMobileVerified(deps.db, row.id, now)))
    return { mobiles: await mobilesOf(deps.db, actor), added: false };
  await audit(deps.db, deps, actor, {
    action: 'patient.mobile.add',
    entityType: 'patient',
    entityId: actor.patientId,
    businessId: actor.businessId,
  });
  return { mobiles: await mobilesOf(deps.db, actor), added: true };
}

/** Removes a mobile the patient added; the one on record is the pharmacy's (409). */
export const removePatientMobile: Service<'auth/removePatientMobile', PatientActor> = async (deps, actor, input) => {
  const current = await mobilesOf(deps.db, actor);
  const found = current.find((m) => m.mobileNumber === input.mobileNumber);
  if (!found) throw new AppError('NOT_FOUND', 'This mobile is not one of yours');
  if (found.onRecord) {
    throw new AppError('CONFLICT', 'This is the mobile the pharmacy has on record: ask the pharmacy to change it');
  }
  await deletePatientMobile(deps.db, actor.patientId, input.mobileNumber);
  await audit(deps.db, deps, actor, {
    action: 'patient.mobile.remove',
    entityType: 'patient',
    entityId: actor.patientId,
    businessId: actor.businessId,
  });
  return { mobiles: await mobilesOf(deps.db, actor) };
};
