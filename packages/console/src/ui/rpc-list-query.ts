import type { AreaName, RpcArgs } from '@medlocker/core';
import { type MethodOf, type RpcInput, type RpcOutput, rpc } from '../api/client.ts';
import type { ListQuery } from './ListPage.tsx';

/** The fields of a method's answer that hold its rows (`orders`, `users`). */
type RowsField<O> = { [K in keyof O]-?: O[K] extends readonly unknown[] ? K : never }[keyof O];
type RowOf<O, K extends keyof O> = O[K] extends readonly (infer T)[] ? T : never;

/**
 * A list's query over one paged rpc method, cached under `key`: `[area, method, ...what the input
 * depends on besides the search]`. `input` makes the call's input from the search and the page cursor;
 * each page is the answer's `rows` and its nextToken.
 */
export function rpcListQuery<A extends AreaName, M extends MethodOf<A>, K extends RowsField<RpcOutput<A, M>>>(
  key: readonly [A, M, ...unknown[]],
  rows: K,
  input: (search: string | undefined, nextToken: string | null) => RpcInput<A, M>,
): ListQuery<RowOf<RpcOutput<A, M>, K>> {
  const [area, method] = key;
  return {
    key,
    load: async (search, nextToken) => {
      const page = await rpc(area, method, ...([input(search, nextToken)] as RpcArgs<A, M>));
      const next = (page as { nextToken: string | null }).nextToken;
      return { items: page[rows] as RowOf<RpcOutput<A, M>, K>[], nextToken: next };
    },
  };
}
