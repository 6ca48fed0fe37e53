/**
 * Who acts. Every service function takes `(deps, actor, input)`: the RPC controllers, the hubs, the job
 * runner, the integration API, the CLI's server side and tests all build an Actor and call the same
 * function. Services never see the HTTP exchange; what the audit log needs of it travels in `origin`.
 */

/** Where a call came from, for the audit log and logs: never used to decide access. */
export type Origin = {
  via: 'portal' | 'cli' | 'locker' | 'integration' | 'job' | 'test';
  requestId: string;
  ip: string | null;
  userAgent: string | null;
};

/** A role's reach over one business or group: `admin` is SPEC §6's Admin access level. */
export type Reach = { admin: boolean };

/** What every signed-in staff member carries. */
type Staff = {
  userId: string;
  sessionId: string;
  email: string;
  displayName: string;
  /** e.g. ['support'] for support staff; the support console requires 'support'. */
  scopes: string[];
  origin: Origin;
};

export type Actor =
  /** Nobody signed in: public methods only (login, reset, pairing). */
  | { kind: 'anonymous'; origin: Origin }
  /** Holds the Support role: the whole estate. */
  | ({ kind: 'support' } & Staff)
  /**
   * Holds Business or Group roles (and not Support). `businesses` holds every business the user
   * reaches, directly or through a group the business belongs to; `groups` the groups named by roles.
   */
  | ({
      kind: 'pharmacy';
      businesses: ReadonlyMap<string, Reach>;
      groups: ReadonlyMap<string, Reach>;
    } & Staff)
  /** A patient who proved who they are on the patient page: one patient of one business. */
  | { kind: 'patient'; patientId: string; businessId: string; origin: Origin }
  /** A paired locker on the machine hub: one machine. */
  | { kind: 'locker'; machineId: string; businessId: string; origin: Origin }
  /** A pharmacy record system through the integration API: one business. */
  | { kind: 'integration'; clientId: string; businessId: string; origin: Origin }
  /** Background work (job runner, sweeps, seed): acts for nobody in particular. */
  | { kind: 'system'; job: string; origin: Origin };

export type ActorKind = Actor['kind'];
export type StaffActor = Extract<Actor, { kind: 'support' | 'pharmacy' }>;

export const isStaff = (actor: Actor): actor is StaffActor => actor.kind === 'support' || actor.kind === 'pharmacy';

/** The user id and display name the audit log and `*By` fields record for an actor. */
export function actorIdentity(actor: Actor): { userId: string | null; display: string | null } {
  switch (actor.kind) {
    case 'support':
    case 'pharmacy':
      return { userId: actor.userId, display: actor.displayName };
    case 'patient':
      return { userId: null, display: `patient ${actor.patientId}` };
    case 'locker':
      return { userId: null, display: `machine ${actor.machineId}` };
    case 'integration':
      return { userId: null, display: `integration ${actor.clientId}` };
    case 'system':
      return { userId: null, display: `system: ${actor.job}` };
    case 'anonymous':
      return { userId: null, display: null };
  }
}

/** An actor for background work and tests. */
export const systemActor = (job: string, requestId: string = Bun.randomUUIDv7()): Actor => ({
  kind: 'system',
  job,
  origin: { via: 'job', requestId, ip: null, userAgent: null },
});

/** The signed-in user behind a request, as the session (or bearer token) says. */
export type Principal = {
  userId: string;
  sessionId: string;
  email: string;
  displayName: string;
  /** e.g. ['support'] for support staff, ['pharmacy'] for holders of Business or Group roles. */
  scopes: string[];
  /**
   * The businesses the user's Business and Group roles reach (a group's businesses included) and the
   * groups (nested ones included), each with the Admin level or not. Absent: none.
   */
  businesses?: ReadonlyMap<string, Reach>;
  groups?: ReadonlyMap<string, Reach>;
  /**
   * A session that has proved the password only: 'second_factor' may only finish the sign-in, 'setup'
   * may only set up a second factor (sessions/pending.ts lists what each may call). Absent: signed in fully.
   */
  pending?: 'second_factor' | 'setup';
};

/** Resolves who is calling; the auth area provides the real one. */
export type AuthPort = {
  /**
   * Returns the principal of a valid session or bearer token, null when there is none.
   * Throws AppError('UNAUTHENTICATED', …) for a session that existed but has expired, so the
   * client can tell a timeout from never having logged in. `touch: false` looks without counting it
   * as activity (the console hub checking an open socket must not keep an idle session alive).
   * A session still waiting for its second factor (or limited to setting one up) is refused as
   * UNAUTHENTICATED unless `allowPending` (only the RPC dispatcher, which lets it call its few methods).
   */
  principalOf(
    request: Request,
    ctx: { ip: string | null; now: number; touch?: boolean; allowPending?: boolean },
  ): Promise<Principal | null>;
};

export const anonymousAuth: AuthPort = { principalOf: async () => null };
