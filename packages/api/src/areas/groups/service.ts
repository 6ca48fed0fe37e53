import { type Contract, infoPageSize, type OutputOf, type ParsedInputOf } from '@medlocker/core';
import type { AuthedContext } from '../../rpc/context.ts';
import { decodeCursor, pageOf } from '../../rpc/paging.ts';
import { listGroupsInfo as list, toGroupInfo } from './repository.ts';

type Groups = Contract['groups'];

export async function listGroupsInfo(
  input: ParsedInputOf<Groups['listGroupsInfo']>,
  ctx: AuthedContext,
): Promise<OutputOf<Groups['listGroupsInfo']>> {
  const after = decodeCursor(input.nextToken, 2);
  const rows = await list(ctx.deps.db, {
    ...(input.filter ? { filter: input.filter } : {}),
    ...(after ? { after } : {}),
    limit: infoPageSize,
  });
  const page = pageOf(rows, infoPageSize, (r) => r.key);
  return { data: page.items.map((r) => toGroupInfo(r.row)), nextToken: page.nextToken };
}
