import { type Contract, infoPageSize, type OutputOf, type ParsedInputOf } from '@medlocker/core';
import type { AuthedContext } from '../../rpc/context.ts';
import { decodeCursor, pageOf } from '../../rpc/paging.ts';
import { listBusinessesInfo as list, toBusinessInfo } from './repository.ts';

type Businesses = Contract['businesses'];

export async function listBusinessesInfo(
  input: ParsedInputOf<Businesses['listBusinessesInfo']>,
  ctx: AuthedContext,
): Promise<OutputOf<Businesses['listBusinessesInfo']>> {
  const after = decodeCursor(input.nextToken, 2);
  const rows = await list(ctx.deps.db, {
    ...(input.filter ? { filter: input.filter } : {}),
    ...(after ? { after } : {}),
    limit: infoPageSize,
  });
  const page = pageOf(rows, infoPageSize, (r) => r.key);
  return { data: page.items.map((r) => toBusinessInfo(r.row)), nextToken: page.nextToken };
}
