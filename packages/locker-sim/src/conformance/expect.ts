/** A check that did not hold: the run records its message as the reason. */
export class Failed extends Error {}

/** A JSON answer read loosely: a check says what it expected when a field is missing. */
// biome-ignore lint/suspicious/noExplicitAny: answers of a server under test, checked field by field.
export type Body = Record<string, any>;

export function expectEqual(actual: unknown, expected: unknown, what: string) {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) {
    throw new Failed(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  }
}

export function expectTrue(ok: unknown, what: string) {
  if (!ok) throw new Failed(what);
}

export const within = <T>(p: Promise<T>, ms: number, what: string): Promise<T> =>
  Promise.race([p, Bun.sleep(ms).then(() => Promise.reject(new Failed(`${what}: nothing within ${ms} ms`)))]);
