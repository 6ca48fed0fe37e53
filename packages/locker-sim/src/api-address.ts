import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The server to talk to when none is given: MEDLOCKER_API (as the CLI reads it), else a local one. */
export function defaultApi(env: Record<string, string | undefined> = process.env): string {
  return env.MEDLOCKER_API?.trim() || 'http://localhost:3000';
}

/**
 * The session `medlocker login` saved for this server (the CLI's credentials file, packages/cli/src/
 * credentials.ts: `$XDG_CONFIG_HOME/medlocker/credentials.json`, else `~/.config/medlocker/…`, keyed by
 * the server's origin), when it has not expired: so QA who signed in with the CLI need no --token.
 */
export async function savedCliToken(
  api: string,
  env: Record<string, string | undefined> = process.env,
  now = Date.now(),
): Promise<string | undefined> {
  const base = env.XDG_CONFIG_HOME?.trim() || join(env.HOME?.trim() || homedir(), '.config');
  try {
    const file = JSON.parse(await readFile(join(base, 'medlocker', 'credentials.json'), 'utf8')) as {
      sessions?: Record<string, { token?: unknown; expires?: unknown }>;
    };
    const saved = file.sessions?.[new URL(api).origin];
    return typeof saved?.token === 'string' && typeof saved.expires === 'number' && saved.expires > now
      ? saved.token
      : undefined;
  } catch {
    return undefined;
  }
}

/** The token to act with: --token, else MEDLOCKER_TOKEN, else the CLI's saved session for the server. */
export async function actingToken(
  api: string,
  given: string | undefined,
  env = process.env,
): Promise<string | undefined> {
  return given ?? (env.MEDLOCKER_TOKEN?.trim() || (await savedCliToken(api, env)));
}
