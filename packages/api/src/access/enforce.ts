import { type Access, AppError, isPublic, type ScopeEntity } from '@medlocker/core';
import type { Database } from '@medlocker/db';
import type { Kysely } from 'kysely';
import type { Actor, Principal, Reach } from '../context/actor.ts';
import { ownersOf, patientsOf } from './repository.ts';

/*
 * The one place a method's declared access (core's contract: `access` of each method) is enforced.
 * rpc/area.ts calls `checkCaller` before validating the input and `enforceScope` after; the hubs, the
 * job runner and the integration API call the same functions with their actor.
 *
 * - nobody signed in, on a method that is not public: 401;
 * - an actor kind the method does not list: 403;
 * - a pharmacy user on a row of a business or group their roles do not reach, or a row that does not
 *   exist: 404 with the same message either way, so the answer never tells another business's rows
 *   from missing ones;
 * - a pharmacy user without the Admin level on a business or group they do reach, where the method
 *   needs it: 403 (they already know the row exists).
 */

/** The part of a caller access decisions need: its kind and, for pharmacy users, what they reach. */
export type Caller = {
  kind: Actor['kind'];
  businesses: ReadonlyMap<string, Reach>;
  groups: ReadonlyMap<string, Reach>;
  /** A patient session's patient: it reaches that patient's own record and orders only. */
  patientId?: string;
};

const none: ReadonlyMap<string, Reach> = new Map();

/** A signed-in user is support with the support scope, else a pharmacy user (perhaps reaching nothing). */
export function callerOf(who: Principal | Actor | null): Caller {
  if (who === null) return { kind: 'anonymous', businesses: none, groups: none };
  if ('kind' in who) {
    if (who.kind === 'pharmacy') return { kind: who.kind, businesses: who.businesses, groups: who.groups };
    if (who.kind === 'patient') {
      return {
        kind: who.kind,
        businesses: new Map([[who.businessId, { admin: false }]]),
        groups: none,
        patientId: who.patientId,
      };
    }
    if (who.kind === 'locker' || who.kind === 'integration') {
      return { kind: who.kind, businesses: new Map([[who.businessId, { admin: false }]]), groups: none };
    }
    return { kind: who.kind, businesses: none, groups: none };
  }
  return who.scopes.includes('support')
    ? { kind: 'support', businesses: none, groups: none }
    : { kind: 'pharmacy', businesses: who.businesses ?? none, groups: who.groups ?? none };
}

/** 401 for nobody on a method that is not public; 403 for an actor kind the method does not list. */
export function checkCaller(access: Access, caller: Caller): void {
  if (isPublic(access)) return;
  if (caller.kind === 'anonymous') throw new AppError('UNAUTHENTICATED', 'Please log in');
  // System work acts for nobody in particular and is trusted like support.
  if (caller.kind === 'system') return;
  if (!access.actors.includes(caller.kind)) throw new AppError('FORBIDDEN', 'You do not have access to this area');
}

const labels: Record<ScopeEntity, string> = {
  business: 'business',
  group: 'group',
  machine: 'machine',
  testMachine: 'test machine',
  patient: 'patient',
  signUp: 'sign-up',
  integrationClient: 'integration client',
  order: 'order',
  webhookDelivery: 'webhook delivery',
};

/** The ids at a dot path of the input: a string, or every string of an array; absent or null gives none. */
export function idsAt(input: unknown, path: string): string[] {
  let value: unknown = input;
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object') return [];
    value = (value as Record<string, unknown>)[key];
  }
  const values = Array.isArray(value) ? value : [value];
  return values.filter((v): v is string => typeof v === 'string');
}

/**
 * Checks that every row the input names through the method's scope belongs to a business (or group)
 * the caller reaches, with the Admin level where the method needs it. Support and system callers
 * reach everything; `self`, `filtered` and `catalogue` scopes are the services' to apply.
 */
export async function enforceScope(
  db: Kysely<Database>,
  access: Access,
  caller: Caller,
  input: unknown,
): Promise<void> {
  if (caller.kind === 'support' || caller.kind === 'system' || caller.kind === 'anonymous') return;
  const scope = access.scope;
  if (scope === 'self' || scope === 'filtered' || scope === 'catalogue' || scope === 'roles') return;
  // A method open to a scoped actor must say what the input belongs to: refuse rather than guess.
  if (scope === undefined) {
    if (isPublic(access)) return;
    throw new AppError('FORBIDDEN', 'You do not have access to this area');
  }
  for (const [entity, paths] of Object.entries(scope) as [ScopeEntity, string | readonly string[]][]) {
    const ids = [paths].flat().flatMap((path) => idsAt(input, path));
    if (ids.length === 0) continue;
    if (caller.kind === 'patient') {
      await enforcePatientScope(db, caller, entity, ids);
      continue;
    }
    const owners = await ownersOf(db, entity, ids);
    const reached = entity === 'group' ? caller.groups : caller.businesses;
    for (const id of ids) {
      const owner = owners.get(id);
      const reach = owner === undefined ? undefined : reached.get(owner);
      if (!reach) throw new AppError('NOT_FOUND', `No ${labels[entity]} with id ${id}`);
      if (access.admin && !reach.admin) {
        throw new AppError(
          'FORBIDDEN',
          `You need the Admin access level on this ${entity === 'group' ? 'group' : 'business'}`,
        );
      }
    }
  }
}

/**
 * A patient session reaches its own patient record and that patient's orders, nothing else: any other
 * id, another patient's order included, is the same 404 as a missing one.
 */
async function enforcePatientScope(
  db: Kysely<Database>,
  caller: Caller,
  entity: ScopeEntity,
  ids: string[],
): Promise<void> {
  const owners = entity === 'order' || entity === 'patient' ? await patientsOf(db, entity, ids) : new Map();
  for (const id of ids) {
    const owner = owners.get(id);
    if (owner === undefined || owner.patientId !== caller.patientId || !caller.businesses.has(owner.businessId)) {
      throw new AppError('NOT_FOUND', `No ${labels[entity]} with id ${id}`);
    }
  }
}

/** A role as a pharmacy user names it: its name and the business or group it is on. */
export type RoleRef = { name: string; resource: string | null };

/**
 * The `roles` scope (SPEC §1: pharmacy administrators manage their own business's or group's users),
 * called by the services of the methods that declare it, since each names its roles differently:
 * - Support, Developer and the data model's other role names are support's alone: 403;
 * - a Business role must be on a business the caller reaches, a Group role on a group their own Group
 *   role names; anything else (another business's, an unknown id, no resource at all) is 404, with the
 *   message of `enforceScope`, so it never tells another business's rows from missing ones;
 * - with `admin`, reaching it without the Admin level is 403.
 * Support and system callers manage every role.
 */
export function enforceRoleScope(caller: Caller, roles: readonly RoleRef[], options: { admin: boolean }): void {
  if (caller.kind === 'support' || caller.kind === 'system') return;
  if (caller.kind !== 'pharmacy') throw new AppError('FORBIDDEN', 'You do not have access to this area');
  for (const role of roles) {
    if (role.name !== 'Business' && role.name !== 'Group') {
      throw new AppError('FORBIDDEN', `Only support staff manage ${role.name} roles`);
    }
    const entity = role.name === 'Business' ? 'business' : 'group';
    const reach =
      role.resource === null ? undefined : (entity === 'group' ? caller.groups : caller.businesses).get(role.resource);
    if (!reach) throw new AppError('NOT_FOUND', `No ${entity} with id ${role.resource ?? '(none)'}`);
    if (options.admin && !reach.admin) {
      throw new AppError('FORBIDDEN', `You need the Admin access level on this ${entity}`);
    }
  }
}

/** Whether a pharmacy caller reaches the business or group a stored role is on (and with Admin, if asked). */
export function reachesRole(
  caller: Caller,
  role: { name: string; resource: string | null; resourceType: 'business' | 'group' | null },
  options: { admin: boolean },
): boolean {
  if (caller.kind === 'support' || caller.kind === 'system') return true;
  if (role.resource === null || role.resourceType === null) return false;
  if (role.name !== 'Business' && role.name !== 'Group') return false;
  const reach = (role.resourceType === 'group' ? caller.groups : caller.businesses).get(role.resource);
  return reach !== undefined && (!options.admin || reach.admin);
}
