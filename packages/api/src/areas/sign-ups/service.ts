import {
  AppError,
  type Contract,
  FormCheck,
  londonIsoDate,
  type OutputOf,
  type ParsedInputOf,
  type SignUpForm,
  signUpsPageSize,
} from '@medlocker/core';
import type { Actor, StaffActor } from '../../actor.ts';
import { audit, auditReads } from '../../audit/audit.ts';
import type { AppDeps } from '../../deps.ts';
import { decodeIdCursor, pageOf } from '../../lists/paging.ts';
import { newCode } from '../../secrets/one-time-codes.ts';
import { checkedPatient, insertPatient, mobilePrefixOf, toPatient, writableBusiness } from '../patients/index.ts';
import { type Channel, checkCode, clearedColumns, issuedColumns, queueCode } from './codes.ts';
import {
  countSignUps,
  type Db,
  deleteSignUpRow,
  deleteUnfinishedOnlineDuplicates,
  findSignUp,
  insertSignUpRow,
  listSignUpRows,
  type SignUpRow,
  toSignUp,
  toVerification,
  updateSignUpRow,
} from './repository.ts';

type SignUps = Contract['signUps'];
type In<M extends keyof SignUps> = ParsedInputOf<SignUps[M]>;
type Out<M extends keyof SignUps> = Promise<OutputOf<SignUps[M]>>;

const MAX_NAME = 100;
const MAX_TEXT = 200;

type SignUpColumns = {
  first_name: string;
  last_name: string;
  date_of_birth: string | null;
  email: string | null;
  mobile_number: string | null;
  address_line1: string | null;
  address_line2: string | null;
  address_line3: string | null;
  post_town: string | null;
  postcode: string | null;
};

/** SPEC §5's form rules for a sign-up (core `FormCheck`, shared with patients' create and update); 400 per field. */
export function checkForm(form: SignUpForm, today: string): SignUpColumns {
  const check = new FormCheck('signUp.', today);
  const address = form.address;
  const line = (key: 'line1' | 'line2' | 'line3' | 'postTown') =>
    check.text(`address.${key}`, address?.[key], { max: MAX_TEXT });
  const columns = {
    first_name: check.text('firstName', form.firstName, { max: MAX_NAME, required: true }) ?? '',
    last_name: check.text('lastName', form.lastName, { max: MAX_NAME, required: true }) ?? '',
    date_of_birth: check.dateOfBirth('dateOfBirth', form.dateOfBirth),
    email: check.email('email', form.email),
    mobile_number: check.ukMobile('mobileNumber', form.mobileNumber),
    address_line1: line('line1'),
    address_line2: line('line2'),
    address_line3: line('line3'),
    post_town: line('postTown'),
    postcode: check.ukPostcode('address.postcode', address?.postcode),
  };
  if (check.errors.length > 0) throw new AppError('VALIDATION', check.summary, check.errors);
  return columns;
}

/** new or validated: validated once every contact the sign-up has is verified (and it has one). */
function waitingStatus(row: Pick<SignUpRow, 'email' | 'mobile_number' | 'email_code_status' | 'mobile_code_status'>) {
  const hasContact = row.email !== null || row.mobile_number !== null;
  const emailOk = row.email === null || row.email_code_status === 'verified';
  const mobileOk = row.mobile_number === null || row.mobile_code_status === 'verified';
  return hasContact && emailOk && mobileOk ? ('validated' as const) : ('new' as const);
}

async function requireSignUp(db: Db, id: string, lock = false): Promise<SignUpRow> {
  const row = await findSignUp(db, id, lock);
  if (!row) throw new AppError('NOT_FOUND', `Sign-up ${id} not found`);
  return row;
}

export const recipientOf = (columns: Pick<SignUpColumns, 'email' | 'mobile_number'>, channel: Channel) =>
  channel === 'email' ? columns.email : columns.mobile_number;

/** Sends fresh codes on `channels` and returns the columns recording them. */
export async function sendCodes(tx: Db, deps: AppDeps, row: SignUpRow, channels: Channel[]) {
  const now = deps.now();
  let columns = {};
  for (const channel of channels) {
    const recipient = recipientOf(row, channel);
    if (!recipient) continue;
    const code = newCode();
    columns = { ...columns, ...issuedColumns(channel, row.id, code, now) };
    await queueCode(tx, {
      businessId: row.business_id,
      channel,
      recipient,
      code,
      productName: deps.config.productName,
      now,
    });
  }
  return columns;
}

export const withVerification = (row: SignUpRow) => ({ signUp: toSignUp(row), verification: toVerification(row) });

export async function create(deps: AppDeps, actor: StaffActor, input: In<'create'>): Out<'create'> {
  const { db, now } = deps;
  await writableBusiness(db, input.businessId);
  const columns = checkForm(input.signUp, londonIsoDate(now()));
  const row = await db.transaction().execute(async (tx) => {
    const inserted = await insertSignUpRow(tx, {
      id: Bun.randomUUIDv7(),
      business_id: input.businessId,
      ...columns,
      created: now(),
      updated: now(),
    });
    const codes = await sendCodes(tx, deps, inserted, ['email', 'mobile']);
    const withCodes = await updateSignUpRow(tx, inserted.id, codes);
    await audit(tx, deps, actor, {
      action: 'signUp.create',
      entityType: 'signUp',
      entityId: inserted.id,
      businessId: input.businessId,
    });
    return withCodes;
  });
  return withVerification(row);
}

export async function update(deps: AppDeps, actor: StaffActor, input: In<'update'>): Out<'update'> {
  const { db, now } = deps;
  const existing = await requireSignUp(db, input.id);
  await writableBusiness(db, existing.business_id);
  const columns = checkForm(input.signUp, londonIsoDate(now()));
  const row = await db.transaction().execute(async (tx) => {
    const current = await requireSignUp(tx, input.id, true);
    if (current.status === 'confirmed') throw new AppError('CONFLICT', 'A converted sign-up cannot be changed');
    const next = { ...current, ...columns };
    let contactColumns = {};
    const resend: Channel[] = [];
    for (const channel of ['email', 'mobile'] as const) {
      const before = recipientOf(current, channel);
      const after = recipientOf(columns, channel);
      const verified = (channel === 'email' ? current.email_code_status : current.mobile_code_status) === 'verified';
      if (after === null) contactColumns = { ...contactColumns, ...clearedColumns(channel) };
      else if (after !== before || (input.resendCodes && !verified)) resend.push(channel);
    }
    contactColumns = { ...contactColumns, ...(await sendCodes(tx, deps, next, resend)) };
    const merged = { ...next, ...contactColumns } as SignUpRow;
    const status =
      input.status === 'rejected' || (current.status === 'rejected' && input.status !== 'new')
        ? ('rejected' as const)
        : waitingStatus(merged);
    const changed = Object.keys(columns).filter(
      (k) => current[k as keyof SignUpRow] !== columns[k as keyof SignUpColumns],
    );
    const updated = await updateSignUpRow(tx, current.id, { ...columns, ...contactColumns, status, updated: now() });
    await audit(tx, deps, actor, {
      action: 'signUp.update',
      entityType: 'signUp',
      entityId: current.id,
      businessId: current.business_id,
      details: { fields: changed, status, codesSent: resend },
    });
    return updated;
  });
  return withVerification(row);
}

export async function remove(deps: AppDeps, actor: StaffActor, input: In<'delete'>): Out<'delete'> {
  const { db } = deps;
  const existing = await requireSignUp(db, input.id);
  await writableBusiness(db, existing.business_id);
  await db.transaction().execute(async (tx) => {
    const current = await requireSignUp(tx, input.id, true);
    if (current.status === 'confirmed') throw new AppError('CONFLICT', 'A converted sign-up cannot be deleted');
    await deleteSignUpRow(tx, current.id);
    await audit(tx, deps, actor, {
      action: 'signUp.delete',
      entityType: 'signUp',
      entityId: current.id,
      businessId: current.business_id,
    });
  });
  return { ok: true as const };
}

/** Records that the caller saw these sign-ups: ids only. */
const auditRead = (deps: AppDeps, actor: StaffActor, rows: SignUpRow[], via: string): Promise<void> =>
  auditReads(
    deps.db,
    deps,
    actor,
    rows.map((row) => ({
      action: 'signUp.read',
      entityType: 'signUp',
      entityId: row.id,
      businessId: row.business_id,
      details: { via },
    })),
  );

export async function get(deps: AppDeps, actor: StaffActor, input: In<'get'>): Out<'get'> {
  const row = await requireSignUp(deps.db, input.id);
  await auditRead(deps, actor, [row], 'get');
  return withVerification(row);
}

export async function list(deps: AppDeps, actor: StaffActor, input: In<'list'>): Out<'list'> {
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
  await auditRead(deps, actor, page.items, 'list');
  return { signUps: page.items.map(toSignUp), nextToken: page.nextToken };
}

export async function count(deps: AppDeps, _actor: StaffActor, input: In<'count'>): Out<'count'> {
  return { count: await countSignUps(deps.db, input.businessId, input.past ?? false) };
}

export async function getBusinessId(
  deps: AppDeps,
  _actor: StaffActor,
  input: In<'getBusinessId'>,
): Out<'getBusinessId'> {
  const row = await requireSignUp(deps.db, input.id);
  return { businessId: row.business_id };
}

/** Said of a sign-up with no mobile: SPEC §5 requires one of a patient, and only the sign-up can give it. */
export const noMobileToConvert = 'A patient needs a mobile number, and this sign-up has none.';

export async function convert(deps: AppDeps, actor: StaffActor, input: In<'convert'>): Out<'convert'> {
  const { db, now } = deps;
  const existing = await requireSignUp(db, input.id);
  const { displayIdField } = await writableBusiness(db, existing.business_id);
  // Checked before the patient is, so the answer names the sign-up, not the patient form's empty
  // mobile field (a client showing it beside the display id it asked for would puzzle the person).
  if (existing.mobile_number === null) {
    throw new AppError('VALIDATION', noMobileToConvert, [
      { path: 'signUp.mobileNumber', id: 'REQUIRED', message: noMobileToConvert },
    ]);
  }
  const values = checkedPatient(
    deps,
    {
      displayId: input.displayId,
      name: { given: existing.first_name, family: existing.last_name },
      mobileNumber: existing.mobile_number,
      ...(existing.date_of_birth ? { dateOfBirth: existing.date_of_birth } : {}),
      ...(existing.email ? { email: existing.email } : {}),
      address: Object.fromEntries(
        Object.entries({
          line1: existing.address_line1,
          line2: existing.address_line2,
          line3: existing.address_line3,
          postTown: existing.post_town,
          postcode: existing.postcode,
        }).filter(([, v]) => v !== null),
      ),
    },
    displayIdField,
  );
  return db.transaction().execute(async (tx) => {
    const current = await requireSignUp(tx, input.id, true);
    if (current.status === 'confirmed') throw new AppError('CONFLICT', 'This sign-up has already been converted');
    if (current.status === 'rejected') throw new AppError('CONFLICT', 'A rejected sign-up cannot be converted');
    const patient = await insertPatient(
      tx,
      deps,
      actor,
      current.business_id,
      values,
      displayIdField,
      'signUps.convert',
    );
    const signUp = await updateSignUpRow(tx, current.id, {
      status: 'confirmed',
      patient_id: patient.id,
      updated: now(),
    });
    await audit(tx, deps, actor, {
      action: 'signUp.convert',
      entityType: 'signUp',
      entityId: current.id,
      businessId: current.business_id,
      details: { patientId: patient.id },
    });
    return { patient: toPatient(patient), signUp: toSignUp(signUp) };
  });
}

export async function verifyContactMethods(
  deps: AppDeps,
  actor: StaffActor,
  input: In<'verifyContactMethods'>,
): Out<'verifyContactMethods'> {
  const row = await checkContactCodes(deps, actor, (tx) => requireSignUp(tx, input.id, true), input);
  return withVerification(row);
}

/**
 * Checks the codes given against the sign-up `lockedRow` finds (locked: two checks at once must not
 * both get the last try), for staff and for the patient page alike. A sign-up that becomes validated
 * removes the earlier unfinished online sign-ups of its business whose every contact it has just
 * proven: the same person's abandoned tries, which would otherwise sit in the pharmacy's list.
 */
export async function checkContactCodes(
  deps: AppDeps,
  actor: Actor,
  lockedRow: (tx: Db) => Promise<SignUpRow>,
  codes: { emailCode?: string | null | undefined; mobileCode?: string | null | undefined },
  who?: { userId: string | null; display: string | null },
): Promise<SignUpRow> {
  const { db, now } = deps;
  return db.transaction().execute(async (tx) => {
    const current = await lockedRow(tx);
    let columns = {};
    const checked: Partial<Record<Channel, string>> = {};
    for (const channel of ['email', 'mobile'] as const) {
      const code = channel === 'email' ? codes.emailCode : codes.mobileCode;
      if (!code?.trim() || recipientOf(current, channel) === null) continue;
      const result = checkCode(current, channel, code, now());
      columns = { ...columns, ...result.columns };
      checked[channel] = result.status;
    }
    if (Object.keys(columns).length === 0) return current;
    const merged = { ...current, ...columns } as SignUpRow;
    const status = current.status === 'new' || current.status === 'validated' ? waitingStatus(merged) : current.status;
    const updated = await updateSignUpRow(tx, current.id, { ...columns, status, updated: now() });
    await audit(tx, deps, actor, {
      action: 'signUp.verify',
      entityType: 'signUp',
      entityId: current.id,
      businessId: current.business_id,
      ...(who ? { who } : {}),
      details: checked,
    });
    if (current.status === 'new' && status === 'validated') {
      const removed = await deleteUnfinishedOnlineDuplicates(tx, updated);
      for (const id of removed) {
        await audit(tx, deps, actor, {
          action: 'signUp.superseded',
          entityType: 'signUp',
          entityId: id,
          businessId: current.business_id,
          ...(who ? { who } : {}),
          details: { by: current.id },
        });
      }
    }
    return updated;
  });
}
