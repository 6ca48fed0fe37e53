import { describe, expect, it } from 'bun:test';
import { fieldErrorsOf } from '../validation/field-errors.ts';
import { isArkErrors } from '../validation/rule.ts';
import { ExemptionCode, exemptionCodes } from './exemption-code.ts';

describe('ExemptionCode', () => {
  it('accepts each of the 13 SPEC codes', () => {
    expect(exemptionCodes).toHaveLength(13);
    for (const code of 'ABDEFGLHKMSUW') expect(ExemptionCode(code)).toBe(code as ExemptionCode);
  });

  it('refuses other letters, lower case and blanks with its validation id', () => {
    for (const code of ['C', 'I', 'Z', 'a', '', ' A', 'AB']) {
      const r = ExemptionCode(code);
      expect(isArkErrors(r) && fieldErrorsOf(r)).toEqual([
        { path: '', id: 'INVALID_EXEMPTION_CODE', message: 'Invalid exemption code' },
      ]);
    }
  });
});
