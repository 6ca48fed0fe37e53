import { normaliseUkMobile } from '../contact/uk-mobile.ts';
import { normaliseUkPostcode } from '../contact/uk-postcode.ts';
import { type ImportedPatient, importedCellMaxLength } from '../patient/imported-patient.ts';
import { nhsNumberDigits } from '../patient/nhs-number.ts';
import { validationMessage } from '../validation/catalogue.ts';
import { isBlankCode, isEmail } from '../validation/general.ts';
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
  /**
   * SPEC §5 has no word for it: a display id already taken by an earlier good row of the same file
   * (the import and the server's batch check both say this).
   */
  duplicateId: (value: string) => `duplicate ID field: ${value}`,
} as const;

export type RowOutcome = { ok: true; patient: ImportedPatient } | { ok: false; errors: string[] };

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const isLeapYear = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const daysInMonth = (year: number, month: number) =>
  month === 2 && isLeapYear(year) ? 29 : (DAYS_IN_MONTH[month - 1] as number);

/** The number written by the digits of value[from, to), or -1 when any is not a digit. */
function digitsAt(value: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = value.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    n = n * 10 + c;
  }
  return n;
}

/** [year, month, day] from one of the three accepted forms, or undefined. */
function datePartsOf(value: string): [number, number, number] | undefined {
  const len = value.length;
  const at = (i: number) => value.charCodeAt(i);
  const DASH = 45;
  const SLASH = 47;
  if (len === 10 && at(2) === DASH && at(5) === DASH) {
    return [digitsAt(value, 6, 10), digitsAt(value, 3, 5), digitsAt(value, 0, 2)]; // DD-MM-YYYY
  }
  if (len === 10 && at(4) === DASH && at(7) === DASH) {
    return [digitsAt(value, 0, 4), digitsAt(value, 5, 7), digitsAt(value, 8, 10)]; // YYYY-MM-DD
  }
  const first = value.indexOf('/');
  const second = first < 0 ? -1 : value.indexOf('/', first + 1);
  // D/M/YYYY: one or two digits for day and month, four for the year.
  if (
    first >= 1 &&
    first <= 2 &&
    second - first >= 2 &&
    second - first <= 3 &&
    len - second === 5 &&
    at(second) === SLASH
  ) {
    return [digitsAt(value, second + 1, len), digitsAt(value, first + 1, second), digitsAt(value, 0, first)];
  }
  return undefined;
}

const TWO_DIGITS = Array.from({ length: 32 }, (_, n) => String(n).padStart(2, '0'));
const pad2 = (n: number) => TWO_DIGITS[n] as string;

/**
 * A date of birth as YYYY-MM-DD from DD-MM-YYYY (strict), YYYY-MM-DD (strict) or D/M/YYYY (the form
 * spreadsheets write), or undefined when it is none of those, not a real day, or after `today`.
 * Parsed by hand, not with regular expressions or Date: it runs on every row of an import.
 */
export function parseDateOfBirth(value: string, today: string): string | undefined {
  const parts = datePartsOf(value);
  if (!parts) return undefined;
  const [year, month, day] = parts;
  if (year < 1850 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (year * 10000 + month * 100 + day > dayNumberOf(today)) return undefined;
  // YYYY-MM-DD is stored as written; the other forms are rewritten.
  return value.length === 10 && value.charCodeAt(4) === 45 ? value : `${year}-${pad2(month)}-${pad2(day)}`;
}

let lastToday = '';
let lastTodayNumber = 0;
/** YYYY-MM-DD as the number YYYYMMDD, remembered for the next row (an import passes the same day). */
function dayNumberOf(today: string): number {
  if (today !== lastToday) {
    lastTodayNumber = Number(today.replaceAll('-', ''));
    lastToday = today;
  }
  return lastTodayNumber;
}

/**
 * A mobile as +447… from what a patient list holds, including the 10 digits starting 7 that a
 * spreadsheet leaves when it drops the leading 0 of 07700 900123.
 */
export const cleanImportMobile = (value: string): string | undefined => normaliseUkMobile(value, { missingZero: true });

/**
 * An NHS number from a cell, written as core's rule accepts it (10 digits, or 3-3-4 with single spaces
 * or single hyphens), and a 9-digit value given back its leading 0 (a spreadsheet drops it from
 * Scottish CHI numbers; the check digit still guards the result).
 */
function cleanNhsNumber(value: string): string | undefined {
  if (value.length === 9 && /^\d{9}$/.test(value)) return nhsNumberDigits(`0${value}`);
  return nhsNumberDigits(value);
}

/** The trimmed cell; most cells need no trimming, and checking the ends spares a copy of each. */
function cell(cells: readonly string[], index: number | undefined): string {
  if (index === undefined) return '';
  const value = cells[index] ?? '';
  const n = value.length;
  return n > 0 && (isBlankCode(value.charCodeAt(0)) || isBlankCode(value.charCodeAt(n - 1))) ? value.trim() : value;
}

/**
 * A cell passed on as it is, blanks and all: for the free-text address fields, which no rule checks
 * here. The server trims them (and drops blank ones) when it checks the patient, so reading every
 * character of them twice is spared.
 */
function passedCell(cells: readonly string[], index: number | undefined): string {
  return index === undefined ? '' : (cells[index] ?? '');
}

/** True for a row with nothing in it: such rows are skipped, not reported. */
export function isEmptyRow(cells: readonly string[]): boolean {
  for (let i = 0; i < cells.length; i++) {
    const value = cells[i] as string;
    for (let j = 0; j < value.length; j++) if (!isBlankCode(value.charCodeAt(j))) return false;
  }
  return true;
}

const entriesOfPlans = new WeakMap<MappingPlan, [string, number | undefined][]>();
/** A plan's fields and cells, listed once per plan rather than once per row. */
function planEntries(plan: MappingPlan): [string, number | undefined][] {
  const known = entriesOfPlans.get(plan);
  if (known) return known;
  const entries = Object.entries(plan);
  entriesOfPlans.set(plan, entries);
  return entries;
}

/**
 * Checks one CSV row against the mapping and SPEC §5, giving the patient to import or every problem
 * in the row. `today` is YYYY-MM-DD (Europe/London), so a date of birth after it is refused.
 */
export function checkPatientRow(cells: readonly string[], plan: MappingPlan, today: string): RowOutcome {
  const errors: string[] = [];
  // Above the contract's ceiling a cell would make the server refuse the whole batch: refuse the row.
  for (const [field, index] of planEntries(plan)) {
    const value = index === undefined ? undefined : cells[index];
    if (value !== undefined && value.length > importedCellMaxLength) {
      errors.push(`${field}: ${validationMessage.maxLength(importedCellMaxLength)}`);
    }
  }
  if (errors.length > 0) return { ok: false, errors };

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
  const line1 = passedCell(cells, plan.AddressLine1);
  const line2 = passedCell(cells, plan.AddressLine2);
  const line3 = passedCell(cells, plan.AddressLine3);
  const postTown = passedCell(cells, plan.PostTown);
  const postcode = cell(cells, plan.Postcode);
  if (line1 || line2 || line3 || postTown || postcode) {
    const address: NonNullable<ImportedPatient['address']> = {};
    if (line1) address.line1 = line1;
    if (line2) address.line2 = line2;
    if (line3) address.line3 = line3;
    if (postTown) address.postTown = postTown;
    // A postcode is kept as written when it is not a valid UK one: SPEC §5 gives the import no
    // postcode rule, and a patient is better imported with an odd postcode than not at all.
    if (postcode) address.postcode = normaliseUkPostcode(postcode) ?? postcode;
    patient.address = address;
  }
  return { ok: true, patient };
}
