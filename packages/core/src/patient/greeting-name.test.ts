import { expect, it } from 'bun:test';
import { greetingName } from './patient.ts';

it('greets a patient by first name, whether stored as a given name or only in a full name', () => {
  expect(greetingName('Mia', 'Mia Clarke')).toBe('Mia');
  expect(greetingName('', 'Eleanor Hughes')).toBe('Eleanor');
  expect(greetingName('  ', '  Eleanor   Mary Hughes ')).toBe('Eleanor');
  expect(greetingName('', '')).toBe('');
});
