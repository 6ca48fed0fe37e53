/**
 * An answer PostgreSQL has already written as JSON. A list read builds each row's object in SQL
 * (`json_build_object`, beside the repository's row mapper) and the api joins the texts: it decodes
 * one column a row instead of every column, and serialises nothing again (docs/PERFORMANCE.md, RPC
 * reads: a 25-row page's api CPU roughly halved). The RPC layer sends the text as it is; outside
 * production it parses it and checks it against the contract like any other answer.
 */
export class JsonText<T> {
  /** What the text holds, for the compiler only. */
  declare readonly holds?: T;
  constructor(readonly text: string) {}
}

/** A page of a list as JSON: `{ [key]: [...items], nextToken }`. */
export function jsonPage<K extends string, T>(
  key: K,
  items: readonly JsonText<T>[],
  nextToken: string | null,
): JsonText<{ [P in K]: T[] } & { nextToken: string | null }> {
  const joined = items.map((item) => item.text).join(',');
  return new JsonText(`{${JSON.stringify(key)}:[${joined}],"nextToken":${JSON.stringify(nextToken)}}`);
}
