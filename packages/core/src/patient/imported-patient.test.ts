import { describe, expect, it } from 'bun:test';
import { contract } from '../contract/index.ts';
import { ImportedPatient } from './imported-patient.ts';

describe('ImportedPatient', () => {
  const patient = { displayId: '1', name: { full: 'Ada Lovelace' }, mobileNumber: '+447700900123' };

  it('refuses an array for the name or the address: must be an object', () => {
    expect(String(ImportedPatient({ ...patient, name: [] }))).toContain('name must be an object');
    expect(String(ImportedPatient({ ...patient, address: [] }))).toContain('address must be an object');
    expect(ImportedPatient({ ...patient, address: { line1: 'x' } })).toEqual({ ...patient, address: { line1: 'x' } });
  });

  // A rule that takes arktype's context (ctx.mustBe) makes every call of the type collect messages, even
  // for a batch that passes: a 1,024-patient import batch took 5x the time to check (docs/PERFORMANCE.md).
  it('is checked by the quick boolean pass first, in the import call too', () => {
    const strategy = (t: unknown) => (t as { internal: { rootApplyStrategy: string } }).internal.rootApplyStrategy;
    expect(strategy(ImportedPatient)).toBe('allows');
    expect(strategy(contract.patients.batchUpsertPatients.input)).toBe('allows');
  });
});
