import { DEVICE_CODE_GRANT, formatUserCode, REFRESH_TOKEN_GRANT, type TokenResponse } from './protocol.ts';

export type Tokens = { machineId: string; accessToken: string; accessTokenExpires: number; refreshToken: string };

const toTokens = (t: TokenResponse): Tokens => ({
  machineId: t.machine_id,
  accessToken: t.access_token,
  accessTokenExpires: t.expires_at,
  refreshToken: t.refresh_token,
});

async function post(api: string, path: string, form: Record<string, string>) {
  const res = await fetch(`${api}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  return {
    status: res.status,
    retryAfter: Number(res.headers.get('retry-after')) || 0,
    body: (await res.json()) as Record<string, unknown>,
  };
}

/**
 * Pairs like a real locker (RFC 8628): asks for a device code, shows the user code through `show`,
 * polls the token endpoint until staff enter it. Starts again when the code expires.
 */
export async function pairDevice(
  api: string,
  show: (userCode: string) => void,
  isRunning: () => boolean,
): Promise<Tokens | null> {
  while (isRunning()) {
    const code = await post(api, '/machine/device/code', {});
    if (code.status === 429) {
      // Too many codes from this address (docs/LOCKER-PROTOCOL.md): wait as told, then ask again.
      await Bun.sleep(Math.max(1, code.retryAfter) * 1000);
      continue;
    }
    if (code.status !== 200) throw new Error(`device code refused: ${code.status}`);
    show(formatUserCode(String(code.body.user_code)));
    let interval = Number(code.body.interval) * 1000;
    const expires = Date.now() + Number(code.body.expires_in) * 1000;
    while (isRunning() && Date.now() < expires) {
      await Bun.sleep(interval);
      const token = await post(api, '/machine/token', {
        grant_type: DEVICE_CODE_GRANT,
        device_code: String(code.body.device_code),
      });
      if (token.status === 200) return toTokens(token.body as TokenResponse);
      if (token.body.error === 'slow_down') interval += 5000;
      else if (token.body.error !== 'authorization_pending') break;
    }
  }
  return null;
}

/** Rotates the tokens; null when the refresh token is no longer good (pair again). */
export async function refreshTokens(api: string, refreshToken: string): Promise<Tokens | null> {
  const res = await post(api, '/machine/token', { grant_type: REFRESH_TOKEN_GRANT, refresh_token: refreshToken });
  if (res.status === 200) return toTokens(res.body as TokenResponse);
  if (res.body.error === 'invalid_grant') return null;
  throw new Error(`refresh failed: ${res.status} ${String(res.body.error)}`);
}
