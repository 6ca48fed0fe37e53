/** The server to talk to when none is given: MEDLOCKER_API (as the CLI reads it), else a local one. */
export function defaultApi(env: Record<string, string | undefined> = process.env): string {
  return env.MEDLOCKER_API?.trim() || 'http://localhost:3000';
}
