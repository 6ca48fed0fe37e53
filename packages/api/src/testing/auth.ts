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
