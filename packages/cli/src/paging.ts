/** One page of a keyset-paged list, as the cli reads it. */
export type Page<T> = { items: T[]; nextToken: string | null };

/**
 * Reads pages from `nextToken` on: just the one page unless `all`, then every page to the end.
 * `onPage` hears the running count after each page (for a progress line).
 */
export async function collectPages<T>(
  fetchPage: (nextToken: string | null) => Promise<Page<T>>,
  options: { nextToken?: string | null; all?: boolean; onPage?: (found: number, nextToken: string | null) => void },
): Promise<Page<T>> {
  const items: T[] = [];
  let nextToken = options.nextToken ?? null;
  do {
    const page = await fetchPage(nextToken);
    items.push(...page.items);
    nextToken = page.nextToken;
    options.onPage?.(items.length, nextToken);
  } while (options.all && nextToken);
  return { items, nextToken };
}
