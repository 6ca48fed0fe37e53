import { describe, expect, it } from 'bun:test';
import { returnPathOf } from './return-path.ts';

describe('returnPathOf', () => {
  it('returns the page the user asked for', () => {
    expect(returnPathOf('?from=%2Fusers%2F123')).toBe('/users/123');
    expect(returnPathOf('?from=%2Fusers%3Fq%3Dsam')).toBe('/users?q=sam');
  });

  it('falls back to the dashboard without a return path', () => {
    expect(returnPathOf('')).toBe('/');
  });

  it('never sends the user to another site', () => {
    expect(returnPathOf('?from=https%3A%2F%2Fevil.example')).toBe('/');
    expect(returnPathOf('?from=%2F%2Fevil.example')).toBe('/');
    expect(returnPathOf('?from=%2F%5Cevil.example')).toBe('/');
  });

  it('does not return to a sign-in page', () => {
    expect(returnPathOf('?from=%2Fauth%2Flogin')).toBe('/');
  });
});
