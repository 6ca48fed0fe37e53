import { describe, expect, it } from 'bun:test';
import type { ImportedPatient } from '@medlocker/core';
import { checkPatient, defaultDisplayIdField, IMPORT_RULES_VERSION, importDigest } from './rules.ts';

const nhs = { ...defaultDisplayIdField, validateNhsNumber: true };

/**
 * What the import rules make of rows in the ways files write them (valid and not), under both NHS-number
 * rules: a row answered unchanged from its digest skips these rules, so when what they make of a row
 * changes, IMPORT_RULES_VERSION must rise with it (and every row goes through them again).
 */
const ROWS: ImportedPatient[] = [
  { displayId: '943 476 5919', name: { given: ' Ada ', family: 'Lovelace' }, mobileNumber: '07700 900123' },
  { displayId: '9434765919', name: { full: 'Ada King' }, mobileNumber: '+44 7700 900123', dateOfBirth: '10/12/1915' },
  { displayId: 'LOCAL-1', name: { full: 'Charles Babbage' }, mobileNumber: '447700900456', email: 'CB@Example.com' },
  {
    displayId: '401 023 2137',
    name: { given: 'Mary', family: 'Somerville' },
    mobileNumber: '07700900789',
    dateOfBirth: '1780-12-26',
    address: { line1: ' 1 High St ', postTown: 'leeds', postcode: 'ls14ap' },
  },
  { displayId: '', name: {}, mobileNumber: '0161 496 0000', dateOfBirth: '2999-01-01', email: 'not an email' },
];

describe('import digests', () => {
  it('holds the rules to their version: what they make of known rows is pinned per version', async () => {
    const made = JSON.stringify(
      [defaultDisplayIdField, nhs].flatMap((field) => ROWS.map((row) => checkPatient(row, field, '2026-12-07'))),
    );
    const hash = new Bun.CryptoHasher('sha256').update(made).digest('hex').slice(0, 16);
    // A new entry (and IMPORT_RULES_VERSION raised to it) when a rule changes what it makes of a row.
    const pinned: Record<number, string> = { 1: 'dc6e277e87626e54' };
    expect(`${IMPORT_RULES_VERSION}:${hash}`).toBe(`${IMPORT_RULES_VERSION}:${pinned[IMPORT_RULES_VERSION]}`);
  });

  it('digests the same fields the same whatever order the JSON had them in, and not the same under the other NHS rule', () => {
    const row = ROWS[3] as ImportedPatient;
    const reordered = JSON.parse(
      '{"address":{"postcode":"ls14ap","postTown":"leeds","line1":" 1 High St "},"mobileNumber":"07700900789","name":{"family":"Somerville","given":"Mary"},"dateOfBirth":"1780-12-26","displayId":"401 023 2137"}',
    ) as ImportedPatient;
    expect(importDigest(reordered, defaultDisplayIdField)).toBe(importDigest(row, defaultDisplayIdField));
    expect(importDigest(row, nhs)).not.toBe(importDigest(row, defaultDisplayIdField));
    expect(importDigest({ ...row, email: 'm@example.com' }, nhs)).not.toBe(importDigest(row, nhs));
  });

  it('keeps the digest of a row as stored patients have it (texts outside ASCII hashed as UTF-8)', () => {
    const row = {
      displayId: 'LOCAL-ë',
      name: { given: 'Zoë', family: 'Ní Bhriain' },
      mobileNumber: '07700 900123',
      address: { line1: '1 Ffordd Ŵy' },
    } as ImportedPatient;
    // Patients keep their digests across releases: a change here sends every row through the checks again.
    expect(importDigest(row, defaultDisplayIdField)).toBe('46052d78232788deee24207e9e141c00');
  });
});
