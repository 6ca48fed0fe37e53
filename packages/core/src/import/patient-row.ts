import { normaliseUkMobile } from '../contact/uk-mobile.ts';
import { normaliseUkPostcode } from '../contact/uk-postcode.ts';
import type { ImportedPatient } from '../patient/imported-patient.ts';
import { isNhsNumber } from '../patient/nhs-number.ts';
import { isEmail } from '../validation/general.ts';
import type { MappingPlan } from './mapping.ts';

/** SPEC §5 per-row import messages, exactly. */
export const rowMessages = {
  missingName: 'missing name',
  invalidNhsNumber: (value: string) => `invalid NHS number: ${value}`,
  missingId: 'missing ID field',
  invalidDateOfBirth: (value: string) => `invalid date of birth: ${value}`,
  invalidEmail: 'email address not valid',
  missingMobile: 'missing mobile number',
  invalidMobile: (value: string) => `invalid mobile number: ${value}`,
} as const;

export type RowOutcome = { ok: true; patient: ImportedPatient } | { ok: false; errors: string[] };

const DD_MM_YYYY = /^(\d{2})-(\d{2})-(\d{4})$/;
const YYYY_MM_DD = /^(\d{4})-(\d{2})-(\d{2})$/;
const D_M_YYYY = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;

/**
 * A date of birth as YYYY-MM-DD from DD-MM-YYYY (strict), YYYY-MM-DD (strict) or D/M/YYYY (the form
 * spreadsheets write), or undefined when it is none of those, not a real day, or after `today`.
 */
export function parseDateOfBirth(value: string, today: string): string | undefined {
  const iso = YYYY_MM_DD.exec(value);
  const dayFirst = DD_MM_YYYY.exec(value) ?? D_M_YYYY.exec(value);
  const [y, mo, d] = iso ? [iso[1], iso[2], iso[3]] : dayFirst ? [dayFirst[3], dayFirst[2], dayFirst[1]] : [];
  if (!y || !mo || !d) return undefined;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (year < 1850 || month < 1 || month > 12 || day < 1) return undefined;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > daysInMonth) return undefined;
  const result = `${y}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  return result <= today ? result : undefined;
}

/**
 * A mobile as +447… from what a patient list holds, including the 10 digits starting 7 that a
 * spreadsheet leaves when it drops the leading 0 of 07700 900123.
 */
export function cleanImportMobile(value: string): string | undefined {
  const digits = value.replace(/[\s.\-()]/g, '');
  if (/^7\d{9}$/.test(digits)) return `+44${digits}`;
  return normaliseUkMobile(value);
}

/**
 * An NHS number from a cell: spaces and hyphens dropped, and a 9-digit value given back its leading
 * 0 (a spreadsheet drops it from Scottish CHI numbers; the check digit still guards the result).
 */
function cleanNhsNumber(value: string): string | undefined {
  let digits = value.replace(/[\s-]/g, '');
  if (/^\d{9}$/.test(digits)) digits = `0${digits}`;
  return isNhsNumber(digits) ? digits : undefined;
}

const cell = (cells: readonly string[], index: number | undefined): string =>
  index === undefined ? '' : (cells[index] ?? '').trim();

/** True for a row with nothing in it: such rows are skipped, not reported. */
export const isEmptyRow = (cells: readonly string[]): boolean => cells.every((c) => c.trim() === '');

/**
 * Checks one CSV row against the mapping and SPEC §5, giving the patient to import or every problem
 * in the row. `today` is YYYY-MM-DD (Europe/London), so a date of birth after it is refused.
 */
export function checkPatientRow(cells: readonly string[], plan: MappingPlan, today: string): RowOutcome {
  const errors: string[] = [];

  const full = cell(cells, plan.FullName);
  const given = cell(cells, plan.GivenName);
  const family = cell(cells, plan.FamilyName);
  const name: ImportedPatient['name'] = {};
  if (plan.FullName !== undefined) {
    if (full) name.full = full;
    else errors.push(rowMessages.missingName);
  } else if (given || family) {
    if (given) name.given = given;
    if (family) name.family = family;
  } else {
    errors.push(rowMessages.missingName);
  }

  let displayId: string | undefined;
  if (plan.NhsNumber !== undefined) {
    const raw = cell(cells, plan.NhsNumber);
    if (!raw) errors.push(rowMessages.missingId);
    else {
      displayId = cleanNhsNumber(raw);
      if (!displayId) errors.push(rowMessages.invalidNhsNumber(raw));
    }
  } else {
    displayId = cell(cells, plan.ID) || undefined;
    if (!displayId) errors.push(rowMessages.missingId);
  }

  const dobRaw = cell(cells, plan.DateOfBirth);
  const dateOfBirth = dobRaw ? parseDateOfBirth(dobRaw, today) : undefined;
  if (dobRaw && !dateOfBirth) errors.push(rowMessages.invalidDateOfBirth(dobRaw));

  const email = cell(cells, plan.Email);
  if (email && !isEmail(email)) errors.push(rowMessages.invalidEmail);

  const mobileRaw = cell(cells, plan.Mobile);
  const mobileNumber = mobileRaw ? cleanImportMobile(mobileRaw) : undefined;
  if (!mobileRaw) errors.push(rowMessages.missingMobile);
  else if (!mobileNumber) errors.push(rowMessages.invalidMobile(mobileRaw));

  if (errors.length > 0 || !displayId || !mobileNumber) return { ok: false, errors };

  const patient: ImportedPatient = { displayId, name, mobileNumber };
  if (dateOfBirth) patient.dateOfBirth = dateOfBirth;
  if (email) patient.email = email;
  const address: NonNullable<ImportedPatient['address']> = {};
  const line1 = cell(cells, plan.AddressLine1);
  const line2 = cell(cells, plan.AddressLine2);
  const line3 = cell(cells, plan.AddressLine3);
  const postTown = cell(cells, plan.PostTown);
  const postcode = cell(cells, plan.Postcode);
  if (line1) address.line1 = line1;
  if (line2) address.line2 = line2;
  if (line3) address.line3 = line3;
  if (postTown) address.postTown = postTown;
  // A postcode is kept as written when it is not a valid UK one: SPEC §5 gives the import no
  // postcode rule, and a patient is better imported with an odd postcode than not at all.
  if (postcode) address.postcode = normaliseUkPostcode(postcode) ?? postcode;
  if (Object.keys(address).length > 0) patient.address = address;
  return { ok: true, patient };
}
