import { expect, it } from 'bun:test';
import { dateOfBirthOf } from './DateOfBirth.tsx';

const now = new Date(Date.UTC(2026, 10, 26, 12));

it('reads day, month and year as YYYY-MM-DD', () => {
  expect(dateOfBirthOf('27', '3', '1985', now)).toEqual({ value: '1985-03-27' });
  expect(dateOfBirthOf(' 7 ', '03', '2001', now)).toEqual({ value: '2001-03-07' });
  expect(dateOfBirthOf('29', '2', '2024', now)).toEqual({ value: '2024-02-29' });
});

it('says what is missing or wrong, in SPEC §5’s words where it has them', () => {
  expect(dateOfBirthOf('', '', '', now).error).toBe('Enter your date of birth');
  expect(dateOfBirthOf('27', '', '', now).error).toBe('Date of birth must include a month and a year');
  expect(dateOfBirthOf('31', '2', '1985', now).error).toBe('Expected a valid date');
  expect(dateOfBirthOf('29', '2', '2025', now).error).toBe('Expected a valid date');
  expect(dateOfBirthOf('1', '1', '85', now).error).toBe('Expected a valid date');
  expect(dateOfBirthOf('x', '1', '1985', now).error).toBe('Expected a valid date');
  expect(dateOfBirthOf('27', '11', '2026', now).error).toBe('Date must be in the past');
});
