import { describe, expect, it } from 'bun:test';
import { checkMapping, exampleCsvColumns, examplePatientCsv } from '@medlocker/core';
import { guessMapping } from './mapping-guess.ts';

describe('guessMapping', () => {
  it('recognises field names a pharmacy system writes, whatever the case and punctuation', () => {
    const mapping = guessMapping(['NHS No.', 'Forename', 'SURNAME', 'Mobile Number', 'D.O.B', 'Post code', 'Notes']);
    expect(mapping).toEqual(['NhsNumber', 'GivenName', 'FamilyName', 'Mobile', 'DateOfBirth', 'Postcode', null]);
    expect(checkMapping(mapping)).toEqual([]);
  });

  it('maps every column of the example file the console offers', () => {
    const header = examplePatientCsv().split('\r\n')[0]?.split(',') ?? [];
    expect(guessMapping(header)).toEqual([...exampleCsvColumns]);
  });

  it('recognises numbered address columns and a city as the post town', () => {
    expect(guessMapping(['Address 1', 'Address 2', 'Address 3', 'City'])).toEqual([
      'AddressLine1',
      'AddressLine2',
      'AddressLine3',
      'PostTown',
    ]);
  });

  it('maps a field only once, leaving a second column of the same kind to the person', () => {
    expect(guessMapping(['Mobile', 'Phone'])).toEqual(['Mobile', null]);
  });
});
