import { AppError, unstorableJson } from '@medlocker/core';

/**
 * Keyset paging. A page token is the sort key of the last row a client saw, made opaque (base64url
 * JSON) so clients don't build their own. The next page is the rows strictly after that key in a
 * total order that ends with the id, so rows inserted meanwhile can neither repeat nor shift a page
 * the way OFFSET would.
 */
export type Cursor = (string | number)[];

export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 200;

export function encodeCursor(key: Cursor): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

/** A page token that is not one this api gave out, or not for this list: a 400. */
export const invalidToken = () =>
  new AppError('VALIDATION', 'Invalid nextToken', [
    { path: 'nextToken', id: 'INVALID_FORMAT', message: 'Value is not correctly formatted' },
  ]);

/** Reads a token the client sent back; a forged or damaged one is a 400, never a 500. */
export function decodeCursor(token: string | null | undefined, arity: number): Cursor | undefined {
  if (token === undefined || token === null || token === '') return undefined;
  try {
    const key: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (
      Array.isArray(key) &&
      key.length === arity &&
      key.every((v) => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v))) &&
      // Text PostgreSQL cannot store (U+0000) would fail in the query: a forged token like any other.
      unstorableJson(key) === null
    ) {
      return key as Cursor;
    }
  } catch {
    // falls through to the refusal below
  }
  throw invalidToken();
}

/** A token whose key is one id (lists in id order); a forged one, a number among them, is a 400. */
export function decodeIdCursor(token: string | null | undefined): string | undefined {
  const key = decodeCursor(token, 1);
  if (key === undefined || typeof key[0] === 'string') return key?.[0] as string | undefined;
  throw invalidToken();
}

/**
 * A token whose key is [time, id] (lists newest first by a timestamp); any other key is a 400. The
 * time is compared with a bigint column: a fraction or a number past 2^53 would fail the query.
 */
export function decodeTimeIdCursor(token: string | null | undefined): [number, string] | undefined {
  const key = decodeCursor(token, 2);
  if (key === undefined) return undefined;
  if (Number.isSafeInteger(key[0]) && typeof key[1] === 'string') return [key[0] as number, key[1]];
  throw invalidToken();
}

/**
 * Given `limit + 1` rows fetched in key order, returns the page and the token for the next one
 * (null when this was the last page).
 */
export function pageOf<Row>(
  rows: Row[],
  limit: number,
  keyOf: (row: Row) => Cursor,
): { items: Row[]; nextToken: string | null } {
  if (rows.length <= limit) return { items: rows, nextToken: null };
  const items = rows.slice(0, limit);
  const last = items[items.length - 1] as Row;
  return { items, nextToken: encodeCursor(keyOf(last)) };
}

/**
 * A page of a list newest first by id: `list` fetches up to `limit + 1` rows strictly before the id the
 * token names (from the newest when there is none); answers the page and the next page's token.
 */
export async function pageBeforeId<Row extends { id: string }>(
  token: string | null | undefined,
  limit: number,
  list: (page: { before?: string; limit: number }) => Promise<Row[]>,
): Promise<{ items: Row[]; nextToken: string | null }> {
  const before = decodeIdCursor(token);
  return pageOf(await list({ ...(before ? { before } : {}), limit }), limit, (r) => [r.id]);
}
