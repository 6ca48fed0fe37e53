import { describe, expect, it } from 'bun:test';
import { type } from 'arktype';
import { BusinessForm } from '../contract/businesses.ts';
import { GroupForm } from '../contract/groups.ts';
import { integration } from '../contract/integration.ts';
import { MachineInput } from '../machine/machine-input.ts';

/** The field errors a schema gives `input`, as path → validation id. */
function refusals(schema: (input: unknown) => unknown, input: unknown): Record<string, unknown> {
  const out = schema(input);
  if (!(out instanceof type.errors)) return {};
  return Object.fromEntries(out.map((e) => [e.path.join('.'), (e.meta as { validationId?: string }).validationId]));
}

const ClientInput = integration.createOrUpdateIntegrationClient.input;

describe('names on one line', () => {
  const broken = ['Boots\r\nBcc: x@evil.example', 'Tab\there', 'Bell\u0007', 'Line\u2028separator', 'C1\u0085'];

  it('refuses a business, group, machine or integration client name with a line break or control character', () => {
    for (const name of broken) {
      expect(refusals(MachineInput, { name, numberOfSlots: 4 })).toEqual({ name: 'INVALID_FORMAT' });
      expect(refusals(GroupForm, { name })).toMatchObject({ name: 'INVALID_FORMAT' });
      expect(refusals(BusinessForm, { name })).toMatchObject({ name: 'INVALID_FORMAT' });
      expect(refusals(ClientInput, { name })).toMatchObject({ name: 'INVALID_FORMAT' });
    }
  });

  it('takes names with accents, apostrophes and other scripts', () => {
    for (const name of ['Boots – Leeds', "O'Neill's Chemist", 'Fferyllfa Llŷn', 'صيدلية']) {
      expect(refusals(MachineInput, { name, numberOfSlots: 4 })).toEqual({});
      expect(refusals(GroupForm, { name }).name).toBeUndefined();
      expect(refusals(BusinessForm, { name }).name).toBeUndefined();
      expect(refusals(ClientInput, { name }).name).toBeUndefined();
    }
  });
});
