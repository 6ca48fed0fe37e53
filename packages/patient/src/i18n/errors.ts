import type { FieldError } from '@medlocker/core';
import { type PatientMessageId, patientLayer, t } from './index.ts';

/*
 * The server's refusals in the page's language. The server words its errors once, in English (SPEC §5
 * and §8); the page says them in English as the server did, and in another language maps what it
 * knows (the error's code, each field's id and path) to its own catalog. A refusal the catalog does
 * not know yet keeps the server's English words rather than say less than the server did
 * (docs/decisions/languages.md, "The server's errors").
 */

/** A refusal as the page has it: api.ts's ApiError, without importing it (api.ts imports this). */
type Refusal = { code: string; message: string; details: readonly FieldError[]; retryAfter?: number | undefined };

/** A field's problem by its id (SPEC §5's codes). */
const byDetail: Partial<Record<string, PatientMessageId>> = {
  REQUIRED: 'error.required',
  FIELD_REQUIRED: 'error.required',
  EXPECTED_EMAIL: 'error.email',
  INVALID_EMAIL: 'error.email',
  INVALID_UK_MOBILE: 'error.mobile',
  INVALID_UK_POSTCODE: 'error.postcode',
  EXPECTED_DATE: 'error.date',
  INVALID_DATE: 'error.date',
  DATE_NOT_IN_PAST: 'error.dateInPast',
  CODE_USED: 'error.codeUsed',
  NO_MOBILE: 'error.noMobile',
  INVALID_EXEMPTION_CODE: 'exemption.errorCode',
  EXEMPTION_DECLARED: 'error.exemptionDeclared',
  NOT_PAID: 'error.notPaid',
  NO_CONTACT: 'error.noContact',
  INVALID_TRANSITION: 'error.settled',
};

/** The London clock time `seconds` from now ('15:20'): Welsh counts minutes with mutations a sentence cannot hold. */
const clockIn = (seconds: number) =>
  new Intl.DateTimeFormat('cy-GB', {
    timeZone: 'Europe/London',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(Date.now() + seconds * 1000);

/** One field's problem in the page's language. */
export function sayDetail(detail: FieldError): string {
  if (patientLayer.locale() === 'en') return detail.message;
  if (detail.id === 'IDENTITY_NOT_CONFIRMED') {
    return t(detail.path === 'code' ? 'error.codeWrong' : 'error.notConfirmed');
  }
  const id = byDetail[detail.id];
  return id ? t(id) : detail.message;
}

/** A refusal (or the server unreachable) in the page's language. */
export function sayRefusal(refusal: Refusal, product: string): string {
  if (patientLayer.locale() === 'en') return refusal.message;
  switch (refusal.code) {
    case 'UNREACHABLE':
      return t('error.unreachable', { product });
    case 'UNEXPECTED_STATUS':
      return t('error.unexpected');
    case 'UNAVAILABLE':
      return t('error.unavailable');
    case 'RATE_LIMITED':
      return refusal.retryAfter ? t('error.tooManyUntil', { time: clockIn(refusal.retryAfter) }) : t('error.tooMany');
  }
  const first = refusal.details[0];
  if (first && (first.id === 'IDENTITY_NOT_CONFIRMED' || byDetail[first.id])) return sayDetail(first);
  if (refusal.code === 'NOT_FOUND') return t('error.notFound');
  return refusal.message;
}
