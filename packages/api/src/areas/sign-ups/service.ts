import { AppError, FormCheck, londonIsoDate, messageLocales, type SignUpForm, signUpsPageSize } from '@medlocker/core';
import { type AuditEntry, auditListPage, entityAudit } from '../../audit/audit.ts';
import type { Actor, StaffActor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import type { Service } from '../../context/method.ts';
import { decodeIdCursor, pageOf } from '../../lists/paging.ts';
import { newCode } from '../../secrets/one-time-codes.ts';
import { effectiveFeatureSettings } from '../business-settings/index.ts';
import { mobilePrefixOf, writableBusiness } from '../patients/index.ts';
import { type Channel, checkCode, clearedCode, codeKey, issuedCode, queueCode } from './codes.ts';
import {
  columnOf,
  countSignUps,
  type Db,
  deleteSignUpRow,
  deleteUnfinishedOnlineDuplicates,
  findSignUp,
  insertSignUpRow,
  listSignUpRows,
  type NewSignUp,
  type SignUpFields,
  type SignUpPatch,
  type SignUpRecord,
  toSignUp,
  toVerification,
  updateSignUpRow,
} from './repository.ts';

const MAX_NAME = 100;
const MAX_TEXT = 200;

/** SPEC §5's form rules for a sign-up (core `FormCheck`, shared with patients' create and update); 400 per field. */
export function checkForm(form: SignUpForm, today: string): SignUpFields {
  const check = new FormCheck('signUp.', today);
  const fields = {
    firstName: check.text('firstName', form.firstName, { max: MAX_NAME, required: true }) ?? '',
    lastName: check.text('lastName', form.lastName, { max: MAX_NAME, required: true }) ?? '',
    dateOfBirth: check.dateOfBirth('dateOfBirth', form.dateOfBirth),
    email: check.email('email', form.email),
    mobileNumber: check.ukMobile('mobileNumber', form.mobileNumber),
    ...check.address('address', form.address, { max: MAX_TEXT }),
  };
  if (check.errors.length > 0) throw new AppError('VALIDATION', check.summary, check.errors);
  return fields;
}

/** The sign-up as it will be once `patch` is written. */
const patched = (record: SignUpRecord, patch: SignUpPatch): SignUpRecord => ({
  ...record,
  ...patch,
  emailCode: { ...record.emailCode, ...patch.emailCode },
  mobileCode: { ...record.mobileCode, ...patch.mobileCode },
});

/** new or validated: validated once every contact the sign-up has is verified (and it has one). */
function waitingStatus(record: SignUpRecord) {
  const hasContact = record.email !== null || record.mobileNumber !== null;
  const emailOk = record.email === null || record.emailCode.status === 'verified';
  const mobileOk = record.mobileNumber === null || record.mobileCode.status === 'verified';
  return hasContact && emailOk && mobileOk ? ('validated' as const) : ('new' as const);
}

export async function requireSignUp(db: Db, id: string, lock = false): Promise<SignUpRecord> {
  const row = await findSignUp(db, id, lock);
  if (!row) throw new AppError('NOT_FOUND', `Sign-up ${id} not found`);
  return row;
}

export const recipientOf = (fields: Pick<SignUpFields, 'email' | 'mobileNumber'>, channel: Channel) =>
  channel === 'email' ? fields.email : fields.mobileNumber;

/**
 * Sends fresh codes on `channels` and returns the change recording them: in the language the visitor
 * chose on the sign-up page, else the business's patient language (core's `messageLocales`).
 */
export async function sendCodes(
  tx: Db,
  deps: AppDeps,
  record: SignUpRecord,
  channels: Channel[],
): Promise<SignUpPatch> {
  const now = deps.now();
  const patch: SignUpPatch = {};
  const { settings } = await effectiveFeatureSettings(tx, record.businessId);
  const locales = messageLocales(settings.patientLanguage, record.language);
  for (const channel of channels) {
    const recipient = recipientOf(record, channel);
    if (!recipient) continue;
    const code = newCode();
    patch[codeKey(channel)] = issuedCode(record.id, channel, code, now);
    await queueCode(tx, {
      businessId: record.businessId,
      channel,
      recipient,
      code,
      productName: deps.config.productName,
      locales,
      now,
    });
  }
  return patch;
}

/** The audit entry of a change to or a read of one sign-up (`signUp.create`, `signUp.read`…), in its business. */
export const auditSignUp = entityAudit('signUp');

export const withVerification = (record: SignUpRecord) => ({
  signUp: toSignUp(record),
  verification: toVerification(record),
});

/**
 * Stores a new sign-up and sends a code to each contact it has, staff-entered or online alike; audited
 * as `signUp.create` (with `audited`'s who and details).
 */
export async function startSignUp(
  tx: Db,
  deps: AppDeps,
  actor: Actor,
  signUp: NewSignUp,
  audited: Pick<AuditEntry, 'who' | 'details'> = {},
): Promise<SignUpRecord> {
  const inserted = await insertSignUpRow(tx, signUp);
  const codes = await sendCodes(tx, deps, inserted, ['email', 'mobile']);
  const withCodes = await updateSignUpRow(tx, inserted.id, codes);
  const created = { id: inserted.id, businessId: signUp.businessId };
  await auditSignUp(tx, deps, actor, 'signUp.create', created, audited.details, audited.who);
  return withCodes;
}

export const create: Service<'signUps/create'> = async (deps, actor, input) => {
  const { db, now } = deps;
  await writableBusiness(db, input.businessId);
  const columns = checkForm(input.signUp, londonIsoDate(now()));
  const row = await db.transaction().execute((tx) =>
    startSignUp(tx, deps, actor, {
      id: Bun.randomUUIDv7(),
      businessId: input.businessId,
      ...columns,
      created: now(),
      updated: now(),
    }),
  );
  return withVerification(row);
};

export const update: Service<'signUps/update'> = async (deps, actor, input) => {
  const { db, now } = deps;
  const existing = await requireSignUp(db, input.id);
  await writableBusiness(db, existing.businessId);
  const columns = checkForm(input.signUp, londonIsoDate(now()));
  const row = await db.transaction().execute(async (tx) => {
    const current = await requireSignUp(tx, input.id, true);
    if (current.status === 'confirmed') throw new AppError('CONFLICT', 'A converted sign-up cannot be changed');
    const next = { ...current, ...columns };
    let contactPatch: SignUpPatch = {};
    const resend: Channel[] = [];
    for (const channel of ['email', 'mobile'] as const) {
      const before = recipientOf(current, channel);
      const after = recipientOf(columns, channel);
      const verified = current[codeKey(channel)].status === 'verified';
      if (after === null) contactPatch = { ...contactPatch, [codeKey(channel)]: clearedCode };
      else if (after !== before || (input.resendCodes && !verified)) resend.push(channel);
    }
    contactPatch = { ...contactPatch, ...(await sendCodes(tx, deps, next, resend)) };
    const status =
      input.status === 'rejected' || (current.status === 'rejected' && input.status !== 'new')
        ? ('rejected' as const)
        : waitingStatus(patched(next, contactPatch));
    const changed = (Object.keys(columns) as (keyof SignUpFields)[])
      .filter((k) => current[k] !== columns[k])
      .map(columnOf);
    const updated = await updateSignUpRow(tx, current.id, { ...columns, ...contactPatch, status, updated: now() });
    await auditSignUp(tx, deps, actor, 'signUp.update', current, { fields: changed, status, codesSent: resend });
    return updated;
  });
  return withVerification(row);
};

export const remove: Service<'signUps/delete'> = async (deps, actor, input) => {
  const { db } = deps;
  const existing = await requireSignUp(db, input.id);
  await writableBusiness(db, existing.businessId);
  await db.transaction().execute(async (tx) => {
    const current = await requireSignUp(tx, input.id, true);
    if (current.status === 'confirmed') throw new AppError('CONFLICT', 'A converted sign-up cannot be deleted');
    await deleteSignUpRow(tx, current.id);
    await auditSignUp(tx, deps, actor, 'signUp.delete', current);
  });
  return { ok: true as const };
};

/** Records that the caller saw these sign-ups: ids only. */
const auditRead = (deps: AppDeps, actor: StaffActor, row: SignUpRecord): Promise<void> =>
  auditSignUp(deps.db, deps, actor, 'signUp.read', row, { via: 'get' });

export const get: Service<'signUps/get'> = async (deps, actor, input) => {
  const row = await requireSignUp(deps.db, input.id);
  await auditRead(deps, actor, row);
  return withVerification(row);
};

export const list: Service<'signUps/list'> = async (deps, actor, input) => {
  const after = decodeIdCursor(input.nextToken);
  const mobilePrefix = input.filter ? mobilePrefixOf(input.filter) : undefined;
  const rows = await listSignUpRows(deps.db, {
    businessId: input.businessId,
    past: input.past ?? false,
    limit: signUpsPageSize,
    ...(input.filter ? { filter: input.filter } : {}),
    ...(mobilePrefix ? { mobilePrefix } : {}),
    ...(after ? { after } : {}),
  });
  const page = pageOf(rows, signUpsPageSize, (r) => [r.id]);
  await auditListPage(deps.db, deps, actor, {
    action: 'signUp.list',
    entityType: 'signUp',
    businessId: input.businessId,
    details: { via: 'list', filtered: Boolean(input.filter) },
    ids: page.items.map((r) => r.id),
  });
  return { signUps: page.items.map(toSignUp), nextToken: page.nextToken };
};

export const count: Service<'signUps/count'> = async (deps, _actor, input) => {
  return { count: await countSignUps(deps.db, input.businessId, input.past ?? false) };
};

export const getBusinessId: Service<'signUps/getBusinessId'> = async (deps, _actor, input) => {
  const row = await requireSignUp(deps.db, input.id);
  return { businessId: row.businessId };
};

export const verifyContactMethods: Service<'signUps/verifyContactMethods'> = async (deps, actor, input) => {
  const row = await checkContactCodes(deps, actor, (tx) => requireSignUp(tx, input.id, true), input);
  return withVerification(row);
};

/**
 * Checks the codes given against the sign-up `lockedRow` finds (locked: two checks at once must not
 * both get the last try), for staff and for the patient page alike. A sign-up that becomes validated
 * removes the earlier unfinished online sign-ups of its business whose every contact it has just
 * proven: the same person's abandoned tries, which would otherwise sit in the pharmacy's list.
 */
export async function checkContactCodes(
  deps: AppDeps,
  actor: Actor,
  lockedRow: (tx: Db) => Promise<SignUpRecord>,
  codes: {
    emailCode?: string | null | undefined;
    mobileCode?: string | null | undefined;
    /** The language the online sign-up page shows (switched on its codes screen): kept while the sign-up is open. */
    language?: SignUpRecord['language'] | undefined;
  },
  who?: { userId: string | null; display: string | null },
): Promise<SignUpRecord> {
  const { db, now } = deps;
  return db.transaction().execute(async (tx) => {
    const current = await lockedRow(tx);
    const columns: SignUpPatch = {};
    const checked: Partial<Record<Channel, string>> = {};
    for (const channel of ['email', 'mobile'] as const) {
      const code = channel === 'email' ? codes.emailCode : codes.mobileCode;
      if (!code?.trim() || recipientOf(current, channel) === null) continue;
      const result = checkCode(current, channel, code, now());
      columns[codeKey(channel)] = result.code;
      checked[channel] = result.status;
    }
    const open = current.status === 'new' || current.status === 'validated';
    const chosen = codes.language && open && codes.language !== current.language ? { language: codes.language } : {};
    if (Object.keys(columns).length === 0) {
      return chosen.language ? updateSignUpRow(tx, current.id, { ...chosen, updated: now() }) : current;
    }
    const status = open ? waitingStatus(patched(current, columns)) : current.status;
    const updated = await updateSignUpRow(tx, current.id, { ...columns, ...chosen, status, updated: now() });
    await auditSignUp(tx, deps, actor, 'signUp.verify', current, checked, who);
    if (current.status === 'new' && status === 'validated') {
      const removed = await deleteUnfinishedOnlineDuplicates(tx, updated);
      for (const id of removed) {
        const superseded = { id, businessId: current.businessId };
        await auditSignUp(tx, deps, actor, 'signUp.superseded', superseded, { by: current.id }, who);
      }
    }
    return updated;
  });
}
