import { describe, expect, it } from 'bun:test';
import { safeReturnPath } from './flow.ts';

/* Where a browser goes after single sign-on: a place on this site only, whatever the URL parser forgives. */

const ORIGIN = 'https://medlocker.example';
const landsOn = (returnUrl: string) => new URL(safeReturnPath(returnUrl, ORIGIN), ORIGIN);

describe('safeReturnPath', () => {
  it('keeps a path or a full URL of this site as its path', () => {
    expect(safeReturnPath('/orders?tab=open#x', ORIGIN)).toBe('/orders?tab=open#x');
    expect(safeReturnPath(`${ORIGIN}/businesses`, ORIGIN)).toBe('/businesses');
  });

  it('never leaves the site, even through tabs, newlines or backslashes the browser drops', () => {
    for (const returnUrl of [
      'https://evil.example/',
      '//evil.example/',
      '/\t/evil.example/',
      '/\n/evil.example/',
      '/\r\n/evil.example/',
      '\t//evil.example/',
      '/\\evil.example/',
      'javascript:alert(1)',
      `${ORIGIN}.evil.example/`,
    ]) {
      expect(landsOn(returnUrl).origin).toBe(ORIGIN);
      expect([...safeReturnPath(returnUrl, ORIGIN)].some((ch) => ch <= ' ' || ch === '\\')).toBe(false);
    }
  });
});
