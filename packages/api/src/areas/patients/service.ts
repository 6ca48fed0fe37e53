import {
  AppError,
  type ImportedPatient,
  type Locale,
  londonIsoDate,
  nhsNumberDigits,
  patientsPageSize,
  rowMessages,
  type UpsertOutcome,
} from '@medlocker/core';
import { refuseDuplicate } from '@medlocker/db';
import { audit, auditListPage, auditReads } from '../../audit/audit.ts';
import type { Actor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import type { Service } from '../../context/method.ts';
import { decodeIdCursor, pageOf } from '../../lists/paging.ts';
import { importedUnchanged, type UpsertRow, upsertPatients } from './import-repository.ts';
import {
  columnsOf,
  type Db,
  findBusinessForPatients,
  findPatient,
  findPatients,
  insertPatientRow,
  listPatients,
  lockPatient,
  type StoredPatient,
  storedColumnsOf,
  toPatient,
  updatePatientRow,
} from './repository.ts';
import {
  checkPatient,
  checkPatientForm,
  type DisplayIdField,
  displayIdFieldOf,
  importDigest,
  namePartsOnUpdate,
  type PatientValues,
} from './rules.ts';
import { queueSearchIndex } from './search-index-repository.ts';
import { voidOptInCode } from './whatsapp-repository.ts';

/** The refusal of a display id another patient of the business has, made when the write finds it taken. */
const displayIdTaken = (field: DisplayIdField) => () =>
  new AppError('CONFLICT', `Another patient of this business has this ${field.name}`, [
    { path: 'patient.displayId', id: 'DUPLICATE_ITEM', message: `Another patient already has this ${field.name}` },
  ]);

/**
 * The business patients are written to: it must exist (404) and not be archived (409, SPEC §4:
 * archived businesses cannot be edited), with its displayIdField setting.
 */
export async function writableBusiness(db: Db, businessId: string): Promise<{ displayIdField: DisplayIdField }> {
  const business = await findBusinessForPatients(db, businessId);
  if (!business) throw new AppError('NOT_FOUND', `Business ${businessId} not found`);
  if (business.archivedAt !== null) {
    throw new AppError('CONFLICT', 'An archived business cannot have its patients changed');
  }
  return { displayIdField: displayIdFieldOf(business.settings) };
}

/** Records that the caller was shown a page of patients: one entry per business, their ids only. */
async function auditPatientList(
  deps: AppDeps,
  actor: Actor,
  patients: StoredPatient[],
  details: Record<string, unknown>,
): Promise<void> {
  for (const businessId of new Set(patients.map((p) => p.businessId))) {
    await auditListPage(deps.db, deps, actor, {
      action: 'patient.list',
      entityType: 'patient',
      businessId,
      details,
      ids: patients.filter((p) => p.businessId === businessId).map((p) => p.id),
    });
  }
}

/**
 * Checks one patient of a form (create, update, signUps.convert) with the forms' rules and words: 400
 * with per-field details when it breaks one. The import's batches keep the per-row CSV messages.
 */
export function checkedPatient(deps: AppDeps, patient: ImportedPatient, field: DisplayIdField): PatientValues {
  const checked = checkPatientForm(patient, field, londonIsoDate(deps.now()));
  if (!checked.ok) throw new AppError('VALIDATION', checked.fields.map((f) => f.message).join('; '), checked.fields);
  return checked.values;
}

/** Records that the caller saw these patients: ids only, never a name or any other detail. */
const auditPatientReads = (deps: AppDeps, actor: Actor, patients: StoredPatient[], via: string): Promise<void> =>
  auditReads(
    deps.db,
    deps,
    actor,
    patients.map((patient) => ({
      action: 'patient.read',
      entityType: 'patient',
      entityId: patient.id,
      businessId: patient.businessId,
      details: { via },
    })),
  );

/**
 * Inserts a checked patient in `tx` and audits it; shared with signUps.convert. A blank display id
 * (allowed when the business does not require one) becomes the patient's own id, so it stays unique.
 * `language` is one the patient chose before they were one (on the online sign-up page); staff never
 * choose it for them.
 */
export async function insertPatient(
  tx: Db,
  deps: AppDeps,
  actor: Actor,
  businessId: string,
  values: PatientValues,
  field: DisplayIdField,
  via: string,
  language: Locale | null = null,
): Promise<StoredPatient> {
  const now = deps.now();
  const id = Bun.randomUUIDv7();
  return refuseDuplicate(displayIdTaken(field), async () => {
    const row = await insertPatientRow(tx, {
      id,
      business_id: businessId,
      ...columnsOf(values),
      display_id: values.displayId || id,
      language,
      created: now,
      updated: now,
    });
    await audit(tx, deps, actor, {
      action: 'patient.create',
      entityType: 'patient',
      entityId: row.id,
      businessId,
      details: { via },
    });
    return row;
  });
}

export const create: Service<'patients/create', Actor> = async (deps, actor, input) => {
  const { db } = deps;
  const { displayIdField } = await writableBusiness(db, input.businessId);
  const values = checkedPatient(deps, input.patient, displayIdField);
  // A savepoint-free transaction: on a unique violation nothing (not even the audit row) is kept.
  const row = await db
    .transaction()
    .execute((tx) => insertPatient(tx, deps, actor, input.businessId, values, displayIdField, 'create'));
  return { patient: toPatient(row) };
};

/** A patient that exists (404 otherwise), locked when `tx` is a transaction. */
async function requirePatient(db: Db, id: string, lock = false): Promise<StoredPatient> {
  const row = lock ? await lockPatient(db, id) : await findPatient(db, id);
  if (!row) throw new AppError('NOT_FOUND', `Patient ${id} not found`);
  return row;
}

export const update: Service<'patients/update', Actor> = async (deps, actor, input) => {
  const { db } = deps;
  const existing = await requirePatient(db, input.id);
  const { displayIdField } = await writableBusiness(db, existing.businessId);
  const values = checkedPatient(deps, input.patient, displayIdField);
  return refuseDuplicate(displayIdTaken(displayIdField), async () => {
    const row = await db.transaction().execute(async (tx) => {
      const current = await requirePatient(tx, input.id, true);
      if (current.deleted !== null) throw new AppError('CONFLICT', 'A deleted patient cannot be changed');
      const stored = { full: current.name, given: current.givenName, family: current.familyName };
      const named = { ...values, ...namePartsOnUpdate(input.patient.name, values, stored) };
      const columns = { ...columnsOf(named), display_id: values.displayId || current.displayId };
      const before = storedColumnsOf(current);
      const changed = Object.entries(columns)
        .filter(([key, value]) => before[key as keyof typeof before] !== value)
        .map(([key]) => key);
      if (changed.length === 0) return current;
      // A WhatsApp opt-in holds for the number it was made on: a new mobile clears it, and its code.
      const newMobile = changed.includes('mobile_number');
      if (newMobile) await voidOptInCode(tx, current.id);
      const optOut = newMobile ? { whatsapp_opt_in_at: null, whatsapp_opt_in_mobile: null } : {};
      const updated = await updatePatientRow(tx, current.id, { ...columns, ...optOut, updated: deps.now() });
      // Column names only: which fields changed, never their old or new values.
      await audit(tx, deps, actor, {
        action: 'patient.update',
        entityType: 'patient',
        entityId: current.id,
        businessId: current.businessId,
        details: { via: 'update', fields: changed },
      });
      return updated;
    });
    return { patient: toPatient(row) };
  });
};

export const get: Service<'patients/get', Actor> = async (deps, actor, input) => {
  const row = await requirePatient(deps.db, input.id);
  await auditPatientReads(deps, actor, [row], 'get');
  return { patient: toPatient(row) };
};

export const remove: Service<'patients/delete'> = async (deps, actor, input) => {
  const { db } = deps;
  const existing = await requirePatient(db, input.id);
  await writableBusiness(db, existing.businessId);
  const row = await db.transaction().execute(async (tx) => {
    const current = await requirePatient(tx, input.id, true);
    if (current.deleted !== null) throw new AppError('CONFLICT', 'This patient has already been deleted');
    const deleted = await updatePatientRow(tx, current.id, {
      deleted_at: deps.now(),
      deleted_by_id: actor.userId,
      deleted_by_display: actor.displayName,
      updated: deps.now(),
    });
    await audit(tx, deps, actor, {
      action: 'patient.delete',
      entityType: 'patient',
      entityId: current.id,
      businessId: current.businessId,
    });
    return deleted;
  });
  return { patient: toPatient(row) };
};

export const list: Service<'patients/list'> = async (deps, actor, input) => {
  const { db } = deps;
  const business = await findBusinessForPatients(db, input.businessId);
  if (!business) throw new AppError('NOT_FOUND', `Business ${input.businessId} not found`);
  const limit = input.limit ?? patientsPageSize;
  const after = decodeIdCursor(input.nextToken);
  const rows = await listPatients(db, {
    businessId: input.businessId,
    onlyCurrent: input.onlyCurrent ?? false,
    onlyWithIssues: input.onlyWithIssues ?? false,
    limit,
    ...(input.filter ? { filter: input.filter } : {}),
    ...(after ? { after } : {}),
  });
  const page = pageOf(rows, limit, (r) => [r.id]);
  await auditPatientList(deps, actor, page.items, { via: 'list', filtered: Boolean(input.filter) });
  return { patients: page.items.map(toPatient), nextToken: page.nextToken };
};

export const batchGet: Service<'patients/batchGet'> = async (deps, actor, input) => {
  const rows = await findPatients(deps.db, input.ids);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const ordered = [...new Set(input.ids)].flatMap((id) => byId.get(id) ?? []);
  await auditPatientList(deps, actor, ordered, { via: 'batchGet' });
  return { patients: ordered.map(toPatient) };
};

export const batchUpsertPatients: Service<'patients/batchUpsertPatients'> = async (deps, actor, input) => {
  const { db, now } = deps;
  const { displayIdField } = await writableBusiness(db, input.businessId);
  const today = londonIsoDate(now());
  const results: UpsertOutcome[] = new Array(input.patients.length);
  const rows: UpsertRow[] = [];
  // Each row's display id as an earlier import of it stored it (an NHS number as its ten digits).
  const storedId = (id: string) => (displayIdField.validateNhsNumber ? (nhsNumberDigits(id) ?? id.trim()) : id.trim());
  const sent = input.patients.map((patient) => ({
    displayId: storedId(patient.displayId ?? ''),
    digest: importDigest(patient, displayIdField),
  }));
  // Rows an import sent exactly so before, untouched since: unchanged, without their checks.
  const unchanged = await unchangedSinceImport(db, input.businessId, sent);
  // Core's import refuses a repeated id across the whole file; this guards a batch from any client.
  const seen = new Set<string>();
  const duplicate = (index: number, id: string): UpsertOutcome => ({
    index,
    status: 'invalid',
    errors: [rowMessages.duplicateId(id)],
  });
  input.patients.forEach((patient, index) => {
    const { displayId, digest } = sent[index] as (typeof sent)[number];
    const known = unchanged[index];
    if (known) {
      results[index] = seen.has(displayId) ? duplicate(index, displayId) : { index, status: 'unchanged', id: known };
      seen.add(displayId);
      return;
    }
    // The import needs a key to upsert on, so a display id is required here whatever the setting says.
    const checked = checkPatient(patient, displayIdField, today);
    if (!checked.ok) results[index] = { index, status: 'invalid', errors: checked.errors };
    else if (seen.has(checked.values.displayId)) results[index] = duplicate(index, checked.values.displayId);
    else {
      seen.add(checked.values.displayId);
      rows.push({ ...checked.values, ord: index, id: Bun.randomUUIDv7(), digest });
    }
  });
  const written = await upsertPatients(db, {
    businessId: input.businessId,
    rows,
    now: now(),
    auditId: Bun.randomUUIDv7(),
    actor: {
      userId: actor.userId,
      display: actor.displayName,
      ip: actor.origin.ip,
      requestId: actor.origin.requestId,
    },
  });
  for (const r of written) results[r.ord] = { index: r.ord, status: r.status, ...(r.id ? { id: r.id } : {}) };
  // What the batch wrote is searchable at once (scanned); the job makes it fast again after the import.
  if (written.some((r) => r.status !== 'unchanged')) await queueSearchIndex(db, now());
  const count = (status: UpsertOutcome['status']) => results.filter((r) => r.status === status).length;
  return {
    results,
    created: count('created'),
    updated: count('updated'),
    unchanged: count('unchanged'),
    invalid: count('invalid'),
  };
};

/** Rows whose digests are looked up first; the rest only when half or more of these were found (a re-import). */
const SAMPLE_ROWS = 8;

/**
 * Of a batch's rows (display id as an import stores it, digest), in order, the patient an import last
 * wrote from exactly that row, untouched since, or null. A batch of new or changed rows (a first import)
 * costs one lookup of its first rows; one whose first rows are mostly found, one of them all.
 */
async function unchangedSinceImport(db: Db, businessId: string, sent: { displayId: string; digest: string }[]) {
  const sample = await importedUnchanged(db, businessId, sent.slice(0, SAMPLE_ROWS));
  if (sent.length <= SAMPLE_ROWS || sample.filter(Boolean).length * 2 < SAMPLE_ROWS) return sample;
  return importedUnchanged(db, businessId, sent);
}
