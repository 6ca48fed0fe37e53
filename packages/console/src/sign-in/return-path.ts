/**
 * The page to go to after logging in: the `from` query parameter when it is a path on this site,
 * else the dashboard. Never another origin (`//evil.example`, `https://…`): an open redirect.
 */
export function returnPathOf(search: string): string {
  const from = new URLSearchParams(search).get('from');
  if (!from?.startsWith('/') || from.startsWith('//') || from.startsWith('/\\')) return '/';
  if (from.startsWith('/auth')) return '/';
  return from;
}
