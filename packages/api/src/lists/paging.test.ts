import { describe, expect, it } from 'bun:test';
import { AppError } from '@medlocker/core';
import { decodeCursor, decodeIdCursor, encodeCursor, pageOf } from './paging.ts';

describe('keyset paging tokens', () => {
  it('round-trips a sort key through an opaque token', () => {
    const token = encodeCursor(['boots pharmacy', '0193a1']);
    expect(token).not.toContain('boots');
    expect(decodeCursor(token, 2)).toEqual(['boots pharmacy', '0193a1']);
  });

  it('treats a missing token as the first page', () => {
    expect(decodeCursor(undefined, 2)).toBeUndefined();
    expect(decodeCursor('', 2)).toBeUndefined();
  });

  it('refuses a damaged or forged token as bad input', () => {
    for (const bad of ['not-base64-json', encodeCursor(['only one']), Buffer.from('{"a":1}').toString('base64url')]) {
      try {
        decodeCursor(bad, 2);
        throw new Error('accepted');
      } catch (error) {
        expect(error).toBeInstanceOf(AppError);
        expect((error as AppError).status).toBe(400);
      }
    }
  });

  it('reads an id token, refusing one whose key is not a single id', () => {
    expect(decodeIdCursor(encodeCursor(['0193a1']))).toBe('0193a1');
    expect(decodeIdCursor(null)).toBeUndefined();
    for (const bad of [encodeCursor([42]), encodeCursor(['a', 'b']), 'not-base64-json']) {
      expect(() => decodeIdCursor(bad)).toThrow(AppError);
    }
  });

  it('gives a next token only when there is a further row', () => {
    const rows = [1, 2, 3].map((id) => ({ id: String(id) }));
    expect(pageOf(rows, 3, (r) => [r.id]).nextToken).toBeNull();
    const page = pageOf(rows, 2, (r) => [r.id]);
    expect(page.items.map((r) => r.id)).toEqual(['1', '2']);
    expect(decodeCursor(page.nextToken, 1)).toEqual(['2']);
  });
});
