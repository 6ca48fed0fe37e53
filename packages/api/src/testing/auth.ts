import type { TestApi } from './api.ts';

/** The session token a response set in its cookie, or undefined. */
export function sessionCookieOf(res: { headers: Headers }): { token: string; attributes: string[] } | undefined {
  for (const line of res.headers.getSetCookie()) {
    const [pair, ...attributes] = line.split(';').map((s) => s.trim());
    if (pair?.startsWith('medlocker_session=')) {
      const token = decodeURIComponent(pair.slice('medlocker_session='.length));
      if (token) return { token, attributes };
    }
  }
  return undefined;
}

export const PASSWORD = 'correct horse battery';

export async function login(t: TestApi, username: string, password = PASSWORD, cookie?: string) {
  const res = await t.call('auth', 'login', { username, password }, cookie ? { cookie } : {});
  const set = sessionCookieOf(res);
  return { ...res, token: set?.token, cookie: set ? `medlocker_session=${set.token}` : undefined };
}

/**
 * Support staff sign in with the password alone from here on: the global setting turned off, as the demo
 * seed has it (a database without the settings row requires a second factor of support staff).
 */
export async function supportWithoutSecondFactor(t: TestApi): Promise<void> {
  await t.db
    .insertInto('global_settings')
    .values({ nhs_prescription_charge: 990, support_second_factor_required: false, updated: t.deps.now() })
    .onConflict((oc) => oc.column('id').doUpdateSet({ support_second_factor_required: false }))
    .execute();
}
