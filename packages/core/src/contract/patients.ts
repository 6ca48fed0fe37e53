import { type } from 'arktype';
import { limits } from '../limits.ts';
import { ImportedPatient } from '../patient/imported-patient.ts';
import { Patient } from '../patient/patient.ts';
import { Id, SearchText } from '../validation/string-limits.ts';
import { defineArea, staff } from './define.ts';
import { byId } from './method-builders.ts';
import { Paging } from './paging.ts';

/** Pages of patients are 25 long; `nextToken` is an opaque keyset cursor on the patient id. */
export const patientsPageSize = 25;

/** At most this many ids to `batchGet` at once. */
export const patientsBatchGetMax = 100;

/** At most this many patients to `batchUpsertPatients` at once: one import batch (SPEC §9). */
export const patientsUpsertMax = limits.csvChunkSize;

/**
 * What the server did with one patient of a batch, by its index in the request:
 * - `created`: no current patient of the business had this display id;
 * - `updated`: one had, and some field differed;
 * - `unchanged`: one had, with exactly these fields (importing the same file twice);
 * - `invalid`: refused, with the SPEC §5 messages in `errors`; nothing was written for it.
 */
export const UpsertStatus = type("'created' | 'updated' | 'unchanged' | 'invalid'");
export type UpsertStatus = typeof UpsertStatus.infer;

export const UpsertOutcome = type({
  index: 'number.integer >= 0',
  status: UpsertStatus,
  /** The patient's id, for every status but `invalid`. */
  'id?': 'string',
  'errors?': 'string[]',
});
export type UpsertOutcome = typeof UpsertOutcome.infer;

/**
 * Patients of a business (SPEC §3, §7). A patient is written as an {@link ImportedPatient}: the shape
 * the CSV import produces, so the console's form, the import and the cli go through one set of server
 * rules (SPEC §5 per-row rules plus the business's displayIdField setting), whatever the client checked.
 */
export const patients = defineArea({
  create: {
    input: type({ businessId: Id, patient: ImportedPatient }),
    output: type({ patient: Patient }),
    access: staff({ business: 'businessId' }),
    summary: 'Adds a patient; its display id must be free among current patients of the business (409).',
  },
  update: {
    input: type({ id: Id, patient: ImportedPatient }),
    output: type({ patient: Patient }),
    access: staff({ patient: 'id' }),
    summary: "Replaces a current patient's details (fields left out become empty).",
  },
  get: byId({
    output: type({ patient: Patient }),
    access: staff({ patient: 'id' }),
    summary: 'One patient, deleted or not; the read is audited.',
  }),
  delete: byId({
    output: type({ patient: Patient }),
    access: staff({ patient: 'id' }),
    summary: 'Soft-deletes a patient: kept for its orders, hidden from onlyCurrent lists, display id freed.',
  }),
  list: {
    input: type({
      businessId: Id,
      /** Case-insensitive prefix of full or family name, display id, mobile (07… or +447…) or email. */
      'filter?': SearchText,
      ...Paging,
      /** Leave out deleted patients. */
      'onlyCurrent?': 'boolean',
      /** Only patients whose last SMS or last email failed. */
      'onlyWithIssues?': 'boolean',
      /** Page length, 25 unless asked (an export asks for 200). */
      'limit?': '1 <= number.integer <= 200',
    }),
    output: type({ patients: Patient.array(), nextToken: 'string | null' }),
    access: staff({ business: 'businessId' }),
    summary: "A business's patients, oldest first, 25 a page, keyset paged; each page read is audited.",
  },
  batchGet: {
    input: type({ ids: Id.array().atMostLength(patientsBatchGetMax) }),
    output: type({ patients: Patient.array() }),
    access: staff({ patient: 'ids' }),
    summary: 'Patients by id (unknown ids are left out), in the order asked; each read is audited.',
  },
  batchUpsertPatients: {
    input: type({ businessId: Id, patients: ImportedPatient.array().atMostLength(patientsUpsertMax) }),
    output: type({
      results: UpsertOutcome.array(),
      created: 'number.integer >= 0',
      updated: 'number.integer >= 0',
      unchanged: 'number.integer >= 0',
      invalid: 'number.integer >= 0',
    }),
    access: staff({ business: 'businessId' }),
    summary: 'Creates or updates up to 1024 patients by display id (the CSV import); one outcome per patient.',
  },
});
