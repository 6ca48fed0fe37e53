import type { Database } from '@medlocker/db';
import type { Kysely } from 'kysely';
import { normaliseEmail } from '../areas/users/repository.ts';
import type { PasswordHashing } from '../config/config.ts';
import { hashPassword } from '../sessions/passwords.ts';
import { authPolicy } from '../sessions/policy.ts';
import { createSession } from '../sessions/sessions.ts';

export type TestUserOptions = {
  email?: string;
  givenName?: string;
  familyName?: string;
  /** Hashed and stored, so the user can also log in through auth.login. */
  password?: string;
  /** The argon2id cost of that hash: the app's configured one (`test` under NODE_ENV=test) unless given. */
  passwordHashing?: PasswordHashing;
  forceReset?: boolean;
  /** Shorthand for a Support role. */
  support?: boolean;
  roles?: {
    name: 'Support' | 'Business' | 'Group' | 'Developer';
    resourceType?: 'business' | 'group';
    resourceId?: string;
    accessLevels?: string[];
  }[];
};

export type TestUser = { userId: string; email: string };
export type SignedIn = TestUser & { token: string; cookie: string };

let counter = 0;

/** Inserts a user with roles straight into the database: a fixture for API tests. */
export async function createTestUser(
  db: Kysely<Database>,
  now: number,
  options: TestUserOptions = {},
): Promise<TestUser> {
  const email = options.email ?? `user${++counter}.${Date.now().toString(36)}@medlocker.test`;
  const id = Bun.randomUUIDv7();
  await db
    .insertInto('users')
    .values({
      id,
      email,
      email_normalised: normaliseEmail(email),
      given_name: options.givenName ?? 'Test',
      family_name: options.familyName ?? 'User',
      password_hash: options.password ? await hashPassword(options.password, options.passwordHashing) : null,
      force_reset: options.forceReset ?? false,
      identity_provider_id: null,
      front_end: options.support ? 'support' : 'pharmacy',
      created: now,
      updated: now,
    })
    .execute();
  const roles = [...(options.support ? [{ name: 'Support' as const }] : []), ...(options.roles ?? [])];
  for (const role of roles) {
    await db
      .insertInto('user_roles')
      .values({
        id: Bun.randomUUIDv7(),
        user_id: id,
        name: role.name,
        resource_type: 'resourceType' in role ? (role.resourceType ?? null) : null,
        resource_id: 'resourceId' in role ? (role.resourceId ?? null) : null,
        access_levels: 'accessLevels' in role ? (role.accessLevels ?? []) : [],
        description: '',
        created: now,
      })
      .execute();
  }
  return { userId: id, email };
}

/** A user with a live session, without going through login: `cookie` for the console, `token` for the cli. */
export async function signInTestUser(
  db: Kysely<Database>,
  now: number,
  options: TestUserOptions = {},
): Promise<SignedIn> {
  const user = await createTestUser(db, now, options);
  const { token } = await createSession(db, user.userId, now, { ip: null, userAgent: 'test' });
  return { ...user, token, cookie: `${authPolicy.sessionCookie}=${token}` };
}
