import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/** What `medlocker login` keeps per API URL. */
export type StoredSession = { token: string; email: string; expires: number };
type CredentialsFile = { sessions: Record<string, StoredSession> };

/** `$XDG_CONFIG_HOME/medlocker/credentials.json`, else `~/.config/medlocker/credentials.json`. */
export function credentialsPath(env: Record<string, string | undefined>): string {
  const base = env.XDG_CONFIG_HOME?.trim() || join(env.HOME?.trim() || homedir(), '.config');
  return join(base, 'medlocker', 'credentials.json');
}

async function readAll(path: string): Promise<CredentialsFile> {
  try {
    const parsed = JSON.parse(await readFile(path, 'utf8')) as Partial<CredentialsFile>;
    return { sessions: parsed.sessions && typeof parsed.sessions === 'object' ? parsed.sessions : {} };
  } catch {
    return { sessions: {} };
  }
}

/** Written to a temporary file (mode 0600) then renamed, so a crash never leaves half a file. */
async function writeAll(path: string, file: CredentialsFile): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
  await chmod(tmp, 0o600);
  await rename(tmp, path);
}

export async function loadSession(path: string, apiUrl: string): Promise<StoredSession | undefined> {
  return (await readAll(path)).sessions[apiUrl];
}

export async function saveSession(path: string, apiUrl: string, session: StoredSession): Promise<void> {
  const file = await readAll(path);
  file.sessions[apiUrl] = session;
  await writeAll(path, file);
}

export async function forgetSession(path: string, apiUrl: string): Promise<void> {
  const file = await readAll(path);
  if (!(apiUrl in file.sessions)) return;
  delete file.sessions[apiUrl];
  await writeAll(path, file);
}
