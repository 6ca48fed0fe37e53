import { expect, it } from 'bun:test';
import { ukMobile } from './Mobiles.tsx';

it('shows a stored mobile as a UK patient writes it', () => {
  expect(ukMobile('+447700900123')).toBe('07700 900123');
  expect(ukMobile('07700900123')).toBe('07700 900123');
  expect(ukMobile('+12025550123')).toBe('+12025550123');
});
