import type { Reach } from '../actor.ts';

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
};

/** Resolves who is calling; the auth area provides the real one. */
export type AuthPort = {
  /**
   * Returns the principal of a valid session or bearer token, null when there is none.
   * Throws AppError('UNAUTHENTICATED', …) for a session that existed but has expired, so the
   * client can tell a timeout from never having logged in. `touch: false` looks without counting it
   * as activity (the console hub checking an open socket must not keep an idle session alive).
   */
  principalOf(request: Request, ctx: { ip: string | null; now: number; touch?: boolean }): Promise<Principal | null>;
};

export const anonymousAuth: AuthPort = { principalOf: async () => null };
