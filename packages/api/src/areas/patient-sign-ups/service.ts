import {
  AppError,
  counted,
  londonIsoDate,
  type OnlineSignUp,
  onlineSignUpLimits,
  validationMessages,
} from '@medlocker/core';
import type { Actor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import type { In, Out, Service } from '../../context/method.ts';
import { maskRecipient } from '../../delivery/messages/send.ts';
import { addressKey } from '../../rate-limits/address-key.ts';
import { type Bucket, releaseToken, reserveToken } from '../../rate-limits/repository.ts';
import { hashToken, newToken } from '../../sessions/tokens.ts';
import { effectiveFeatureSettings, findBusiness } from '../business-settings/index.ts';
import {
  auditSignUp,
  checkContactCodes,
  checkForm,
  type Db,
  deleteSignUpRow,
  findSignUpByAccessHash,
  type SignUpRecord,
  sendCodes,
  startSignUp,
  toVerification,
  updateSignUpRow,
} from '../sign-ups/index.ts';

/*
 * Online sign-ups from the patient page (docs/decisions/patients.md, "Online sign-ups"). The browser
 * that starts a sign-up gets a token (the controller puts it in an HttpOnly cookie); only its hash is
 * stored on the sign-up, and it is the only way to reach that sign-up here: no method takes an id.
 */

/** The browser's sign-up token, handed to the controller to set as its cookie. */
export type SignUpAccess = { token: string; maxAgeSeconds: number };

const accessMs = onlineSignUpLimits.accessHours * 60 * 60_000;
const resendMs = onlineSignUpLimits.resendAfterSeconds * 1000;

export const signUpsClosed = 'This pharmacy does not take sign-ups online. Please contact the pharmacy.';
export const noSignUpHere =
  "There is no sign-up in progress in this browser. Please start again from the pharmacy's sign-up page.";
export const contactNeeded = 'Please enter an email address or a mobile number, so we can check it is you';

const addressBucket: Bucket = {
  capacity: onlineSignUpLimits.sendsPerAddress,
  perMs: onlineSignUpLimits.sendsPerAddressPerMinutes * 60_000,
};
const businessBucket: Bucket = {
  capacity: onlineSignUpLimits.sendsPerBusiness,
  perMs: onlineSignUpLimits.sendsPerBusinessPerMinutes * 60_000,
};

/** Who acted, in the audit log: a member of the public has no account, and their name is not logged. */
const who = { userId: null, display: 'online sign-up' };

const minutes = (seconds: number) => {
  const n = Math.max(1, Math.ceil(seconds / 60));
  return counted(n, 'minute');
};

/**
 * A business taking online sign-ups. Unknown, archived and closed ones are the same 404, so the page
 * cannot be used to learn which ids exist.
 */
async function openBusiness(db: Db, businessId: string) {
  const business = await findBusiness(db, businessId);
  if (!business || business.archived) throw new AppError('NOT_FOUND', signUpsClosed);
  const { settings } = await effectiveFeatureSettings(db, businessId);
  if (!settings.onlineSignups.enabled) throw new AppError('NOT_FOUND', signUpsClosed);
  return { ...business, patientLanguage: settings.patientLanguage };
}

const contactBucket: Bucket = {
  capacity: onlineSignUpLimits.sendsPerContact,
  perMs: onlineSignUpLimits.sendsPerContactPerMinutes * 60_000,
};

/** A contact a code is about to go to. Its bucket is keyed by a hash: rate_buckets keeps no contact details. */
type Contact = { channel: 'email' | 'mobile'; value: string };
const contactKey = (c: Contact) =>
  `signup:contact:${hashToken(`${c.channel}:${c.channel === 'email' ? c.value.toLowerCase() : c.value}`)}`;

/**
 * Reserves, before any work, one send for the caller's address, one for the business and one for each
 * contact a code will go to, each in one statement in the database (shared by every api process); 429
 * with the wait when any is spent, and then the ones already taken go back (nothing was done).
 * Answers the way to give them all back, for work refused after all (a resend the lock finds too early).
 * In-process calls (tests, jobs) have no address and count against the business and contacts only.
 */
async function reserveSends(
  deps: AppDeps,
  actor: Actor,
  businessId: string,
  contacts: Contact[],
): Promise<() => Promise<void>> {
  const now = deps.now();
  const taken: [string, Bucket][] = [];
  const giveBack = async () => {
    for (const [key, bucket] of taken.splice(0)) await releaseToken(deps.db, key, bucket);
  };
  const take = async (key: string, bucket: Bucket, refusal: (wait: number) => AppError) => {
    const wait = await reserveToken(deps.db, key, bucket, now);
    if (wait === null) {
      taken.push([key, bucket]);
      return;
    }
    await giveBack();
    throw refusal(wait);
  };
  if (actor.origin.ip !== null) {
    await take(
      `signup:address:${addressKey(actor.origin.ip)}`,
      addressBucket,
      (wait) =>
        new AppError(
          'RATE_LIMITED',
          `Too many sign-ups from this address. Please try again in ${minutes(wait)}.`,
          undefined,
          wait,
        ),
    );
  }
  await take(`signup:business:${businessId}`, businessBucket, (wait) => {
    deps.logger.warn('online sign-ups limited for a business', { businessId });
    return new AppError(
      'RATE_LIMITED',
      `This pharmacy has had too many sign-ups just now. Please try again in ${minutes(wait)}.`,
      undefined,
      wait,
    );
  });
  for (const contact of contacts) {
    await take(
      contactKey(contact),
      contactBucket,
      (wait) =>
        new AppError(
          'RATE_LIMITED',
          `Too many codes have been sent to this ${contact.channel === 'email' ? 'email address' : 'mobile number'} just now. Please try again in ${minutes(wait)}.`,
          undefined,
          wait,
        ),
    );
  }
  return giveBack;
}

/** The contacts of a sign-up that codes would go to on `channels`. */
const contactsOf = (row: { email: string | null; mobileNumber: string | null }, channels: Contact['channel'][]) =>
  channels.flatMap((channel): Contact[] => {
    const value = channel === 'email' ? row.email : row.mobileNumber;
    return value === null ? [] : [{ channel, value }];
  });

/** The sign-up this browser's token reaches, while the token lasts; 404 otherwise. */
async function ownSignUp(db: Db, token: string | null, now: number, lock = false): Promise<SignUpRecord> {
  const row = token ? await findSignUpByAccessHash(db, hashToken(token), lock) : undefined;
  if (!row || row.accessExpiresAt === null || now >= row.accessExpiresAt) {
    throw new AppError('NOT_FOUND', noSignUpHere);
  }
  return row;
}

async function answerOf(deps: AppDeps, row: SignUpRecord): Promise<OnlineSignUp> {
  const business = await findBusiness(deps.db, row.businessId);
  const spent = row.codeSends >= onlineSignUpLimits.sendsPerSignUp || row.status !== 'new';
  return {
    businessId: row.businessId,
    businessName: business?.name ?? '',
    status: row.status,
    email: row.email === null ? null : maskRecipient(row.email),
    mobileNumber: row.mobileNumber === null ? null : maskRecipient(row.mobileNumber),
    verification: toVerification(row),
    resendAfter: spent ? null : (row.lastCodeSentAt ?? 0) + resendMs,
  };
}

export const business: Service<'patientSignUps/business', Actor> = async (deps, _actor, input) => {
  const found = await openBusiness(deps.db, input.businessId);
  return { businessId: found.id, name: found.name, patientLanguage: found.patientLanguage };
};

/**
 * Starts a sign-up: SPEC §5's form rules, plus an email or a mobile to prove (a sign-up with neither
 * could never be validated). Sends a code to each, in the language the visitor chose on the page when
 * they did (kept for the patient it becomes), and answers the new token for the cookie.
 */
export async function create(
  deps: AppDeps,
  actor: Actor,
  input: In<'patientSignUps/create'>,
  previousToken: string | null,
): Promise<{ answer: OnlineSignUp; access: SignUpAccess }> {
  const { db, now } = deps;
  await openBusiness(db, input.businessId);
  const columns = checkForm(input.signUp, londonIsoDate(now()));
  if (columns.email === null && columns.mobileNumber === null) {
    throw new AppError('VALIDATION', contactNeeded, [
      { path: 'signUp.email', id: 'REQUIRED', message: validationMessages.REQUIRED },
      { path: 'signUp.mobileNumber', id: 'REQUIRED', message: validationMessages.REQUIRED },
    ]);
  }
  await reserveSends(deps, actor, input.businessId, contactsOf(columns, ['email', 'mobile']));
  const token = newToken();
  const row = await db.transaction().execute(async (tx) => {
    // The same browser starting again with this pharmacy (a typo in the email): its unfinished sign-up
    // is replaced rather than left beside the new one in the pharmacy's list.
    const previous = previousToken ? await findSignUpByAccessHash(tx, hashToken(previousToken), true) : undefined;
    if (previous && previous.businessId === input.businessId && previous.status === 'new') {
      await deleteSignUpRow(tx, previous.id);
      await auditSignUp(tx, deps, actor, 'signUp.withdrawn', previous, { reason: 'started again' }, who);
    }
    return startSignUp(
      tx,
      deps,
      actor,
      {
        id: Bun.randomUUIDv7(),
        businessId: input.businessId,
        ...columns,
        source: 'online',
        accessTokenHash: hashToken(token),
        accessExpiresAt: now() + accessMs,
        codeSends: 1,
        lastCodeSentAt: now(),
        language: input.language ?? null,
        created: now(),
        updated: now(),
      },
      { who, details: { via: 'online' } },
    );
  });
  return { answer: await answerOf(deps, row), access: { token, maxAgeSeconds: accessMs / 1000 } };
}

export async function get(deps: AppDeps, token: string | null): Out<'patientSignUps/get'> {
  return answerOf(deps, await ownSignUp(deps.db, token, deps.now()));
}

export async function verify(
  deps: AppDeps,
  actor: Actor,
  input: In<'patientSignUps/verify'>,
  token: string | null,
): Out<'patientSignUps/verify'> {
  const now = deps.now();
  await ownSignUp(deps.db, token, now);
  // A language switched on the codes screen is the visitor's latest choice: the patient they become keeps it.
  const row = await checkContactCodes(deps, actor, (tx) => ownSignUp(tx, token, now, true), input, who);
  return answerOf(deps, row);
}

/** Why no code can be sent now, or null when one can. */
function resendRefusal(row: SignUpRecord, now: number): AppError | null {
  if (row.status !== 'new') {
    return new AppError(
      'CONFLICT',
      row.status === 'validated' ? 'Every contact is already verified' : 'This sign-up is closed',
    );
  }
  if (row.codeSends >= onlineSignUpLimits.sendsPerSignUp) {
    return new AppError(
      'CONFLICT',
      'No more codes can be sent for this sign-up. Please start again or contact the pharmacy.',
    );
  }
  const next = (row.lastCodeSentAt ?? 0) + resendMs;
  if (now < next) {
    const wait = Math.ceil((next - now) / 1000);
    return new AppError('RATE_LIMITED', `Please wait ${wait} seconds before asking for a new code.`, undefined, wait);
  }
  return null;
}

/** The channels of a sign-up whose contact is not verified yet. */
const unverified = (row: SignUpRecord) =>
  (['email', 'mobile'] as const).filter((c) => (c === 'email' ? row.emailCode : row.mobileCode).status !== 'verified');

/** New codes for the contacts not verified yet; a language given replaces the one kept (the page's switch since). */
export async function resendCodes(
  deps: AppDeps,
  actor: Actor,
  input: In<'patientSignUps/resendCodes'>,
  token: string | null,
): Out<'patientSignUps/resendCodes'> {
  const { db, now } = deps;
  const current = await ownSignUp(db, token, now());
  const early = resendRefusal(current, now());
  if (early) throw early;
  // Each code can cost an SMS: none once the pharmacy stops taking sign-ups online (or is archived).
  // The codes already sent may still be checked; the pharmacy judges the sign-up in its list.
  await openBusiness(db, current.businessId);
  const giveBack = await reserveSends(deps, actor, current.businessId, contactsOf(current, unverified(current)));
  const row = await db
    .transaction()
    .execute(async (tx) => {
      const locked = await ownSignUp(tx, token, now(), true);
      // Checked again under the lock: two resends at once send once.
      const refusal = resendRefusal(locked, now());
      if (refusal) throw refusal;
      const channels = unverified(locked);
      const language = input.language ?? locked.language;
      const columns = await sendCodes(tx, deps, { ...locked, language }, channels);
      const updated = await updateSignUpRow(tx, locked.id, {
        ...columns,
        language,
        codeSends: locked.codeSends + 1,
        lastCodeSentAt: now(),
        updated: now(),
      });
      await auditSignUp(tx, deps, actor, 'signUp.codesResent', locked, { channels }, who);
      return updated;
    })
    .catch(async (error: unknown) => {
      // Refused under the lock (another resend got there first) or failed: nothing was sent.
      await giveBack();
      throw error;
    });
  return answerOf(deps, row);
}
