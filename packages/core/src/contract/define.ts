import type { Type } from 'arktype';

/**
 * Who calls. `anonymous` in a method's `actors` makes it public (login, reset); `support` holds the
 * Support role (the whole estate); `pharmacy` holds Business or Group roles and reaches only what
 * those roles name (SPEC §6). `patient`, `locker` and `integration` call from the patient page, the
 * machine hub and the integration API: each reaches one patient, machine or business.
 */
export type ActorKind = 'anonymous' | 'support' | 'pharmacy' | 'patient' | 'locker' | 'integration';

/**
 * The kinds of row a method's input can name. The api resolves each to the business (or group) it
 * belongs to: a machine, test machine, patient, sign-up, integration client, order or webhook delivery to its business.
 */
export type ScopeEntity =
  | 'business'
  | 'group'
  | 'machine'
  | 'testMachine'
  | 'patient'
  | 'signUp'
  | 'integrationClient'
  | 'order'
  | 'webhookDelivery';

/**
 * What the input must belong to for a scoped actor (pharmacy today; patient, locker and integration
 * actors reach one business too). A record names the input field (a dot path; an array field means
 * every element) holding an id of that entity, e.g. `{ business: 'businessId' }` or `{ machine: 'id' }`.
 * - `'filtered'`: a list the service filters to what the actor reaches.
 * Several fields may be named (`{ group: ['id', 'parentId'] }`); an absent or null field is skipped.
 * - `'self'`: the signed-in user's own record or session; the service checks it is theirs.
 * - `'catalogue'`: the same for every caller and about no business (e.g. the integration partners).
 * - `'roles'`: Business and Group roles (and their holders) on the businesses and groups the caller
 *   reaches, never Support or Developer; which field names the role differs per method, so the service
 *   checks it with the api's `enforceRoleScope` (SPEC §1: pharmacy administrators manage their own users).
 */
export type Scope =
  | { readonly [E in ScopeEntity]?: string | readonly string[] }
  | 'filtered'
  | 'self'
  | 'catalogue'
  | 'roles';

/**
 * A method's access, declared in the contract and enforced in one place (the api's access/enforce.ts):
 * - `actors`: who may call at all (anyone else: 401 when nobody is signed in, else 403);
 * - `scope`: for pharmacy users, what the input must belong to (required when `pharmacy` is listed);
 * - `admin`: pharmacy users need the Admin access level on that business or group.
 * Support reaches everything, so `scope` and `admin` never restrict it.
 */
export type Access = {
  readonly actors: readonly ActorKind[];
  readonly scope?: Scope;
  readonly admin?: boolean;
};

/** Anyone, signed in or not. */
export const publicAccess = { actors: ['anonymous', 'support', 'pharmacy'] } as const satisfies Access;
/** Support staff only. */
export const supportOnly = { actors: ['support'] } as const satisfies Access;
/** Any signed-in staff member, on their own record or session (users with no roles too). */
export const signedInSelf = { actors: ['support', 'pharmacy'], scope: 'self' } as const satisfies Access;
/** Support, and pharmacy users on what the scope names (with `admin`: Admin users only). */
export const staff = <const S extends Scope, const Admin extends boolean = false>(scope: S, admin?: Admin) =>
  ({ actors: ['support', 'pharmacy'], scope, ...(admin ? { admin } : {}) }) as {
    readonly actors: readonly ['support', 'pharmacy'];
    readonly scope: S;
    readonly admin?: Admin;
  };

export const isPublic = (access: Access): boolean => access.actors.includes('anonymous');

/**
 * Whether an actor of this kind may call the method at all, as the api's first check decides. What a
 * pharmacy user's roles reach (`scope`) and whether they hold Admin (`admin`) are the api's to judge;
 * a front end uses this to leave out actions whose method would only answer 403 to this actor.
 */
export const actorMayCall = (access: Access, actor: ActorKind): boolean => access.actors.includes(actor);

/** One sentence on who may call a method, for the OpenAPI page and docs/SECURITY.md. */
export function describeAccess(access: Access): string {
  if (isPublic(access)) return 'Public.';
  if (access.actors.includes('patient') && !access.actors.includes('support')) {
    return access.scope === 'self'
      ? 'The patient of a patient session, on their own session and orders.'
      : `The patient of a patient session, on the ${Object.entries(access.scope ?? {})
          .map(([entity, path]) => `${entity} of ${[path].flat().join('/')}`)
          .join(' and ')} when it is their own (else 404).`;
  }
  if (!access.actors.includes('pharmacy')) return 'Support staff only.';
  const scope = access.scope;
  const reach =
    scope === 'self'
      ? 'their own record or session'
      : scope === 'filtered'
        ? 'the rows of the businesses and groups they reach (the list is filtered)'
        : scope === 'catalogue'
          ? 'the shared catalogue'
          : scope === 'roles'
            ? 'Business and Group roles (and the users holding them) on the businesses and groups they reach, never Support or Developer'
            : `the ${Object.entries(scope ?? {})
                .map(([entity, path]) => `${entity} of ${[path].flat().join('/')}`)
                .join(' and ')} when it belongs to a business or group they reach`;
  return `Support staff; pharmacy users${access.admin ? ' with the Admin access level' : ''} on ${reach}.`;
}

export type Method<I extends Type = Type, O extends Type = Type> = {
  input: I;
  output: O;
  access: Access;
  /** One line for the OpenAPI page. */
  summary: string;
};

export type Area = Record<string, Method>;

/**
 * Keeps the literal types of an area while checking its shape. Every input refuses keys it does not
 * declare, at any depth (docs/decisions/contract.md, Nothing silently ignored): a misspelt or unsettable field
 * is a 400 naming it, never dropped.
 */
export const defineArea = <const A extends Area>(area: A): A => rejectingUndeclaredKeys(area);

/**
 * Each input made strict when it is first read, not when the contract loads: arktype rebuilds the whole
 * type to do it, a third of loading the contract, and a client (the CLI, the locker simulator, a page)
 * reads no input; the api reads a method's at its first call.
 */
function rejectingUndeclaredKeys<const A extends Area>(area: A): A {
  for (const method of Object.values(area)) {
    const declared = method.input;
    let strict: Type | undefined;
    Object.defineProperty(method, 'input', {
      get: () => {
        strict ??= declared.onDeepUndeclaredKey('reject');
        return strict;
      },
      enumerable: true,
    });
  }
  return area;
}

export type InputOf<M extends Method> = M['input']['inferIn'];
export type ParsedInputOf<M extends Method> = M['input']['infer'];
export type OutputOf<M extends Method> = M['output']['infer'];
