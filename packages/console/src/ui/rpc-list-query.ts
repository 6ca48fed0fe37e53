import type { AreaName, RpcArgs } from '@medlocker/core';
import { type MethodOf, type RpcInput, type RpcOutput, rpc } from '../api/client.ts';
import type { ListQuery } from './ListPage.tsx';

/** The fields of a method's answer that hold its rows (`orders`, `users`). */
type RowsField<O> = { [K in keyof O]-?: O[K] extends readonly unknown[] ? K : never }[keyof O];
type RowOf<O, K extends keyof O> = O[K] extends readonly (infer T)[] ? T : never;
/** The methods of an area that answer a page: a list built on any other would compile and never page. */
type PagedMethodOf<A extends AreaName> = {
  [M in MethodOf<A>]: RpcOutput<A, M> extends { nextToken: string | null } ? M : never;
}[MethodOf<A>];

/**
 * A list's query over one paged rpc method, cached under `key`: `[area, method, ...what the input
 * depends on besides the search]`. `input` makes the call's input from the search and the page cursor;
 * each page is the answer's `rows` and its nextToken.
 */
export function rpcListQuery<A extends AreaName, M extends PagedMethodOf<A>, K extends RowsField<RpcOutput<A, M>>>(
  key: readonly [A, M, ...unknown[]],
  rows: K,
  input: (search: string | undefined, nextToken: string | null) => RpcInput<A, M>,
): ListQuery<RowOf<RpcOutput<A, M>, K>> {
  const [area, method] = key;
  return {
    key,
    load: async (search, nextToken) => {
      const page = await rpc(area, method, ...([input(search, nextToken)] as RpcArgs<A, M>));
      // M answers a page (PagedMethodOf); the compiler cannot see it through the generic output type.
      const next = (page as { nextToken: string | null }).nextToken;
      return { items: page[rows] as RowOf<RpcOutput<A, M>, K>[], nextToken: next };
    },
  };
}
