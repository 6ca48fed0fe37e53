import { AppError, type Contract, type OutputOf, type ParsedInputOf } from '@medlocker/core';
import type { StaffActor } from '../../actor.ts';
import type { AppDeps } from '../../deps.ts';
import { getIdentityProvider, listIdentityProviders } from './repository.ts';

type Idp = Contract['identityProviders'];

export async function list(
  deps: AppDeps,
  _actor: StaffActor,
  _input: ParsedInputOf<Idp['list']>,
): Promise<OutputOf<Idp['list']>> {
  return { identityProviders: await listIdentityProviders(deps.db) };
}

export async function get(
  deps: AppDeps,
  _actor: StaffActor,
  input: ParsedInputOf<Idp['get']>,
): Promise<OutputOf<Idp['get']>> {
  const idp = await getIdentityProvider(deps.db, input.id);
  if (!idp) throw new AppError('NOT_FOUND', 'No such identity provider');
  return idp;
}
