import { type ActorKind, type AreaName, actorMayCall, type MethodName, methodActors } from '@medlocker/core';
import { useActorKind } from './session.ts';

/** A contract method an action ends in: `['businesses', 'createBusiness']`. */
export type MethodRef = { [A in AreaName]: readonly [A, MethodName<A>] }[AreaName];

// Core's schema-free list of each method's `access.actors` (generated from the contract and checked
// against it), so a page showing actions does not evaluate every arktype schema.
const actorsOf = ([area, method]: MethodRef): readonly ActorKind[] =>
  (methodActors[area] as Record<string, readonly ActorKind[]>)[method] ?? [];

const allowed = (method: MethodRef | undefined, actor: ActorKind) =>
  method === undefined || actorMayCall({ actors: actorsOf(method) }, actor);

/**
 * Whether the signed-in user may call `method` (its `access` in core's contract): pages leave out an
 * Add, Link or Remove that would only be refused. Scope and Admin are the server's to check (a page
 * shows only what the user reaches); a method unknown to the contract is never allowed.
 */
export function useMayCall(method: MethodRef | undefined): boolean {
  return allowed(method, useActorKind());
}

/** The same for several actions at once: those whose method the user may call (or that name none). */
export function useAllowed<T extends { method?: MethodRef }>(items: readonly T[]): T[] {
  const actor = useActorKind();
  return items.filter((item) => allowed(item.method, actor));
}
