import { type Access, type AreaName, actorMayCall, contract, type MethodName } from '@medlocker/core';
import { useAtomValue } from 'jotai';
import { actorKindAtom } from './session.ts';

/** A contract method an action ends in: `['businesses', 'createBusiness']`. */
export type MethodRef = { [A in AreaName]: readonly [A, MethodName<A>] }[AreaName];

const accessOf = ([area, method]: MethodRef): Access =>
  (contract[area] as Record<string, { access: Access }>)[method]?.access ?? { actors: [] };

/**
 * Whether the signed-in user may call `method` (its `access` in core's contract): pages leave out an
 * Add, Link or Remove that would only be refused. Scope and Admin are the server's to check (a page
 * shows only what the user reaches); a method unknown to the contract is never allowed.
 *
 * Imported by pages only: it reads the contract, whose schemas the sign-in page does not load.
 */
export function useMayCall(method: MethodRef | undefined): boolean {
  const actor = useAtomValue(actorKindAtom);
  return method === undefined || actorMayCall(accessOf(method), actor);
}

/** The same for several actions at once: those whose method the user may call (or that name none). */
export function useAllowed<T extends { method?: MethodRef }>(items: readonly T[]): T[] {
  const actor = useAtomValue(actorKindAtom);
  return items.filter((item) => item.method === undefined || actorMayCall(accessOf(item.method), actor));
}
