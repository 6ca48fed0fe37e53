import { type Address, formatDate, formatNhsNumber, isNhsNumber } from '@medlocker/core';
import { t } from './i18n/index.ts';

/** A display id grouped 3-3-4 when it is an NHS number (SPEC §5), else as stored. */
export const displayIdOf = (id: string) => (isNhsNumber(id) ? formatNhsNumber(id) : id);

/** A date of birth stored YYYY-MM-DD, shown DD-MM-YYYY (SPEC §9). */
export const dateOfBirthOf = (dob: string | null) => (dob ? formatDate(dob) : t('patients.noValue'));

/** An address on one line. */
export const addressOf = (a: Address | null) =>
  (a && [a.line1, a.line2, a.line3, a.postTown, a.postcode].filter(Boolean).join(', ')) || t('patients.noValue');
