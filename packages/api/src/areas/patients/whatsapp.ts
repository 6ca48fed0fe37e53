import {
  AppError,
  codeTextIn,
  counted,
  type Locale,
  messageLocales,
  type Patient,
  whatsAppOptInCodes,
} from '@medlocker/core';
import { audit } from '../../audit/audit.ts';
import type { Service } from '../../context/method.ts';
import { maskRecipient } from '../../delivery/messages/send.ts';
import { queueMessages } from '../../outbox/index.ts';
import { newCode, sameHash } from '../../secrets/one-time-codes.ts';
import { effectiveFeatureSettings, findBusiness } from '../business-settings/index.ts';
import { findPatientLanguage, lockPatient, type StoredPatient, toPatient } from './repository.ts';
import {
  type Db,
  lockOptInCode,
  saveOptInCode,
  setPatientOptIn,
  updateOptInCode,
  voidOptInCode,
} from './whatsapp-repository.ts';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const UK_MOBILE = /^\+447\d{9}$/;

/** The template key of the code message on the Messages tab; its body is never shown there (it holds the code). */
export const WHATSAPP_CODE_TEMPLATE = 'whatsAppOptInCode';

/** Only this is stored: bound to the patient and the number, so a hash says nothing elsewhere. */
const hashCode = (patientId: string, mobile: string, code: string): string =>
  new Bun.CryptoHasher('sha256').update(`whatsapp:${patientId}:${mobile}:${code}`).digest('hex');

/** '123456' as people read it out: '123 456'. */
const grouped = (code: string) => `${code.slice(0, 3)} ${code.slice(3)}`;

const codeError = (message: string) =>
  new AppError('VALIDATION', message, [{ path: 'code', id: 'INVALID_CODE', message }]);

/**
 * The patient (locked), refused when WhatsApp cannot be used for them: 404 unknown; 409 deleted,
 * business archived, WhatsApp not enabled for the business, or no UK mobile to send to.
 */
async function whatsAppPatient(
  tx: Db,
  patientId: string,
): Promise<{ patient: StoredPatient; businessName: string; locales: Locale[] }> {
  const patient = await lockPatient(tx, patientId);
  if (!patient) throw new AppError('NOT_FOUND', `Patient ${patientId} not found`);
  if (patient.deleted !== null) throw new AppError('CONFLICT', 'A deleted patient cannot be opted in to WhatsApp');
  const business = await findBusiness(tx, patient.businessId);
  if (!business) throw new AppError('NOT_FOUND', `Business ${patient.businessId} not found`);
  if (business.archived) {
    throw new AppError('CONFLICT', 'An archived business cannot have its patients changed');
  }
  const { settings } = await effectiveFeatureSettings(tx, patient.businessId);
  if (!settings.enableWhatsApp) {
    throw new AppError('CONFLICT', 'WhatsApp messages are not enabled for this business');
  }
  if (!patient.mobileNumber || !UK_MOBILE.test(patient.mobileNumber)) {
    throw new AppError('CONFLICT', 'This patient has no UK mobile number: add one before sending a WhatsApp code');
  }
  // The code is written in the patient's languages, as their order messages are.
  const locales = messageLocales(settings.patientLanguage, await findPatientLanguage(tx, patientId));
  return { patient, businessName: business.name, locales };
}

/** 429 with Retry-After, in words staff can act on. */
function tooSoon(message: string, retryAfterMs: number): AppError {
  return new AppError('RATE_LIMITED', message, undefined, Math.max(1, Math.ceil(retryAfterMs / 1000)));
}

/**
 * `users.addWhatsAppOptIn`: queues a 6-digit code to the patient by WhatsApp (through the outbox, so the
 * runner retries it), stored only as a hash with its expiry; a new code replaces the old. The send is
 * reserved in the same transaction as the code: at most one a minute and five a rolling day per patient.
 */
export const addWhatsAppOptIn: Service<'users/addWhatsAppOptIn'> = async (deps, actor, input) => {
  const { whatsApp } = deps.config.gateways;
  if (deps.config.production && !(whatsApp.token && whatsApp.phoneNumberId)) {
    // The code could not leave (the sender would fail it): say so now, not after the patient waited.
    throw new AppError('UNAVAILABLE', 'WhatsApp is not set up on this server, so no code can be sent');
  }
  return deps.db.transaction().execute(async (tx) => {
    const { patient, businessName, locales } = await whatsAppPatient(tx, input.patientId);
    const mobile = patient.mobileNumber as string;
    // Opted in on this very number (whatsAppPatient made sure it is a UK mobile).
    if (patient.whatsAppOptIn !== null) {
      throw new AppError('CONFLICT', 'This patient is already opted in to WhatsApp on this number');
    }
    const now = deps.now();
    const previous = await lockOptInCode(tx, patient.id);
    if (previous && now - previous.lastSentAt < MINUTE) {
      const wait = previous.lastSentAt + MINUTE - now;
      throw tooSoon(
        `A code was sent to this patient less than a minute ago. Please wait ${Math.ceil(wait / 1000)} seconds before sending another.`,
        wait,
      );
    }
    const sameDay = previous !== undefined && now - previous.dayStartedAt < DAY;
    const sentToday = sameDay ? previous.sentInDay : 0;
    if (sentToday >= whatsAppOptInCodes.perDay) {
      const wait = Number(previous?.dayStartedAt) + DAY - now;
      const hours = Math.ceil(wait / (60 * MINUTE));
      throw tooSoon(
        `This patient has been sent ${whatsAppOptInCodes.perDay} WhatsApp codes today. Please try again in ${counted(hours, 'hour')}.`,
        wait,
      );
    }
    const code = newCode();
    const expiresAt = now + whatsAppOptInCodes.ttlMinutes * MINUTE;
    await saveOptInCode(tx, {
      patientId: patient.id,
      businessId: patient.businessId,
      mobileNumber: mobile,
      codeHash: hashCode(patient.id, mobile, code),
      expiresAt,
      attempts: 0,
      lastSentAt: now,
      dayStartedAt: sameDay ? previous.dayStartedAt : now,
      sentInDay: sentToday + 1,
    });
    await queueMessages(
      tx,
      {
        businessId: patient.businessId,
        message: {
          channel: 'whatsapp',
          recipient: mobile,
          templateKey: WHATSAPP_CODE_TEMPLATE,
          body: codeTextIn(locales, 'whatsAppOptInCode', {
            businessName,
            code: grouped(code),
            minutes: whatsAppOptInCodes.ttlMinutes,
          }),
          patientId: patient.id,
        },
        runAfter: now,
      },
      now,
    );
    await audit(tx, deps, actor, {
      action: 'patient.whatsAppCodeSent',
      entityType: 'patient',
      entityId: patient.id,
      businessId: patient.businessId,
    });
    return { sentTo: maskRecipient(mobile), expiresAt };
  });
};

type Checked = { ok: true; patient: Patient } | { ok: false; error: AppError };

/**
 * `users.verifyWhatsAppOptInMessage`: the code the patient read back. Right → opted in on the number the
 * code went to (when it is still their mobile), with when and who, audited. Wrong → another try used (the
 * fifth spends the code); late, spent, replaced or sent to an old number → 'expired'. Both answer 400 on
 * `code`, after the try is committed, so a refusal cannot be retried for free.
 */
export const verifyWhatsAppOptInMessage: Service<'users/verifyWhatsAppOptInMessage'> = async (deps, actor, input) => {
  const code = input.code.replace(/[\s-]/g, '');
  if (!new RegExp(`^\\d{${whatsAppOptInCodes.digits}}$`).test(code)) {
    throw codeError(`Enter the ${whatsAppOptInCodes.digits}-digit code the patient received on WhatsApp`);
  }
  const checked = await deps.db.transaction().execute(async (tx): Promise<Checked> => {
    const { patient } = await whatsAppPatient(tx, input.patientId);
    const mobile = patient.mobileNumber as string;
    const row = await lockOptInCode(tx, patient.id);
    const now = deps.now();
    if (
      !row?.codeHash ||
      row.mobileNumber !== mobile ||
      now > row.expiresAt ||
      row.attempts >= whatsAppOptInCodes.maxAttempts
    ) {
      return { ok: false, error: codeError('The code has expired or was used up. Send the patient a new code.') };
    }
    if (!sameHash(hashCode(patient.id, mobile, code), row.codeHash)) {
      const attempts = row.attempts + 1;
      const left = whatsAppOptInCodes.maxAttempts - attempts;
      await updateOptInCode(tx, patient.id, left > 0 ? { attempts } : { attempts, spent: true });
      return {
        ok: false,
        error: codeError(
          left > 0
            ? `The code is wrong. Check it with the patient and try again (${counted(left, 'try', 'tries')} left).`
            : 'The code is wrong, and that was the last try. Send the patient a new code.',
        ),
      };
    }
    await updateOptInCode(tx, patient.id, { spent: true });
    const updated = await setPatientOptIn(
      tx,
      patient.id,
      { at: now, mobileNumber: mobile, byId: actor.userId, byDisplay: actor.displayName },
      now,
    );
    await audit(tx, deps, actor, {
      action: 'patient.whatsAppOptIn',
      entityType: 'patient',
      entityId: patient.id,
      businessId: patient.businessId,
    });
    return { ok: true, patient: toPatient(updated) };
  });
  if (!checked.ok) throw checked.error;
  return { patient: checked.patient };
};

/**
 * `users.removeWhatsAppOptIn` (beyond SPEC §7): the patient no longer wants WhatsApp; their messages go
 * by SMS or email again and any outstanding code stops working. A patient not opted in is left as is.
 */
export const removeWhatsAppOptIn: Service<'users/removeWhatsAppOptIn'> = async (deps, actor, input) => {
  return deps.db.transaction().execute(async (tx) => {
    const patient = await lockPatient(tx, input.patientId);
    if (!patient) throw new AppError('NOT_FOUND', `Patient ${input.patientId} not found`);
    await voidOptInCode(tx, patient.id);
    if (patient.whatsAppOptInAt === null) return { patient: toPatient(patient) };
    const updated = await setPatientOptIn(tx, patient.id, null, deps.now());
    await audit(tx, deps, actor, {
      action: 'patient.whatsAppOptOut',
      entityType: 'patient',
      entityId: patient.id,
      businessId: patient.businessId,
    });
    return { patient: toPatient(updated) };
  });
};
