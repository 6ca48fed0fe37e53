import {
  DEVICE_CODE_GRANT,
  formatUserCode,
  REFRESH_TOKEN_GRANT,
  reconnectDelayMs,
  type TokenResponse,
} from './protocol.ts';

export type Tokens = { machineId: string; accessToken: string; accessTokenExpires: number; refreshToken: string };

const toTokens = (t: TokenResponse): Tokens => ({
  machineId: t.machine_id,
  accessToken: t.access_token,
  accessTokenExpires: t.expires_at,
  refreshToken: t.refresh_token,
});

const isTokenResponse = (body: Record<string, unknown>): body is TokenResponse =>
  typeof body.access_token === 'string' &&
  typeof body.refresh_token === 'string' &&
  typeof body.machine_id === 'string' &&
  typeof body.expires_at === 'number';

/** The server's answer; status 0 when it could not be reached, body null when it could not be read. */
type Answer = { status: number; retryAfter: number; body: Record<string, unknown> | null };

async function post(api: string, path: string, form: Record<string, string>): Promise<Answer> {
  let res: Response;
  try {
    res = await fetch(`${api}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });
  } catch {
    return { status: 0, retryAfter: 0, body: null };
  }
  const retryAfter = Number(res.headers.get('retry-after')) || 0;
  try {
    const body: unknown = await res.json();
    return { status: res.status, retryAfter, body: body && typeof body === 'object' ? (body as Answer['body']) : null };
  } catch {
    // A proxy's error page, or the server gone mid-answer.
    return { status: res.status, retryAfter, body: null };
  }
}

const problemOf = (answer: Answer): string =>
  answer.status === 0 ? 'server unreachable' : `server answered ${answer.status}`;

export type PairingHooks = {
  /** Shows the user code ('KDNV-QXRT') on the locker's screen; null while there is no valid code. */
  show: (userCode: string | null) => void;
  /** The server is unreachable or failed: pairing tries again after `delayMs` (it never gives up). */
  waiting: (problem: string, delayMs: number) => void;
  /** The token endpoint refused the code for good (`expired_token`, `access_denied`…): a new one follows. */
  refused?: (error: string) => void;
  isRunning: () => boolean;
  /** Waits `ms`; the locker's own resolves early when it stops. */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
};

/**
 * Pairs like a real locker (RFC 8628, docs/LOCKER-PROTOCOL.md §2): asks for a device code, shows the
 * user code, polls the token endpoint until staff enter it. A code that expires or is refused starts
 * a new pairing. The server being unreachable or failing (no answer, 5xx, an answer it cannot read) is
 * transient: it waits with the reconnect backoff of §10 (full jitter, capped at 5 minutes) and tries
 * again, keeping a code that is still valid. Resolves with the tokens, or null once the locker stops.
 */
export async function pairDevice(api: string, hooks: PairingHooks): Promise<Tokens | null> {
  const sleep = hooks.sleep ?? Bun.sleep;
  const random = hooks.random ?? Math.random;
  // Failed attempts in a row, as the WebSocket reconnect counts them: the backoff grows with each.
  let failures = 0;
  const backoff = (answer: Answer): number => {
    const delay = reconnectDelayMs(failures++, random);
    hooks.waiting(problemOf(answer), delay);
    return delay;
  };

  while (hooks.isRunning()) {
    const code = await post(api, '/machine/device/code', {});
    if (code.status === 429) {
      // Too many codes from this address (§2.1): wait as told, then ask again.
      await sleep(Math.max(1, code.retryAfter) * 1000);
      continue;
    }
    const userCode = code.body?.user_code;
    const deviceCode = code.body?.device_code;
    if (code.status !== 200 || typeof userCode !== 'string' || typeof deviceCode !== 'string') {
      await sleep(backoff(code));
      continue;
    }
    failures = 0;
    hooks.show(formatUserCode(userCode));
    let interval = (Number(code.body?.interval) || 5) * 1000;
    const expires = Date.now() + (Number(code.body?.expires_in) || 600) * 1000;
    let wait = interval;
    while (hooks.isRunning() && Date.now() < expires) {
      await sleep(wait);
      if (!hooks.isRunning()) break;
      const token = await post(api, '/machine/token', { grant_type: DEVICE_CODE_GRANT, device_code: deviceCode });
      const error = token.status === 400 ? token.body?.error : undefined;
      if (token.status === 200 && token.body && isTokenResponse(token.body)) return toTokens(token.body);
      if (error === 'authorization_pending' || error === 'slow_down') {
        if (failures > 0) hooks.show(formatUserCode(userCode)); // the server is back; the code still holds
        failures = 0;
        if (error === 'slow_down') interval += 5000;
        wait = interval;
        continue;
      }
      if (typeof error === 'string') {
        // expired_token, access_denied, invalid_grant: this code is done with. (invalid_request and
        // unsupported_grant_type would be a bug here; starting again is still the best a locker can do.)
        hooks.refused?.(error);
        break;
      }
      wait = Math.max(interval, backoff(token));
    }
    hooks.show(null);
  }
  return null;
}

/** Rotates the tokens; null when the refresh token is no longer good (pair again); throws when the server fails. */
export async function refreshTokens(api: string, refreshToken: string): Promise<Tokens | null> {
  const res = await post(api, '/machine/token', { grant_type: REFRESH_TOKEN_GRANT, refresh_token: refreshToken });
  if (res.status === 200 && res.body && isTokenResponse(res.body)) return toTokens(res.body);
  if (res.status === 400 && res.body?.error === 'invalid_grant') return null;
  throw new Error(`refresh failed: ${problemOf(res)} ${String(res.body?.error ?? '')}`.trim());
}
