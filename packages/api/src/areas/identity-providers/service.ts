import { AppError, type Contract, type OutputOf, type ParsedInputOf } from '@medlocker/core';
import type { AuthedContext } from '../../rpc/context.ts';
import { getIdentityProvider, listIdentityProviders } from './repository.ts';

type Idp = Contract['identityProviders'];

export async function list(_input: ParsedInputOf<Idp['list']>, ctx: AuthedContext): Promise<OutputOf<Idp['list']>> {
  return { identityProviders: await listIdentityProviders(ctx.deps.db) };
}

export async function get(input: ParsedInputOf<Idp['get']>, ctx: AuthedContext): Promise<OutputOf<Idp['get']>> {
  const idp = await getIdentityProvider(ctx.deps.db, input.id);
  if (!idp) throw new AppError('NOT_FOUND', 'No such identity provider');
  return idp;
}
