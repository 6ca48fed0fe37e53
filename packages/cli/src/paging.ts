import type { Command } from 'commander';
import type { Client } from './client.ts';
import { type CliIo, commandContext, type GlobalOptions } from './context.ts';
import { type Column, renderTable } from './ui/table.tsx';

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

/**
 * `list` under `parent` for an archivable entity (businesses, groups): one page by name, active or
 * `--archived`, a name prefix with `--filter`, `--all` pages or from `--next-token`; a table, or with
 * --json the items and the next token.
 */
export function archivableList<T>(
  parent: Command,
  io: CliIo,
  spec: {
    /** Plural, lower case: 'businesses'. */
    noun: string;
    columns: Column<T>[];
    fetch: (client: Client, q: { archived: boolean; filter?: string; nextToken: string | null }) => Promise<Page<T>>;
  },
): void {
  parent
    .command('list')
    .description(`List ${spec.noun} by name (25 a page; --all for every page)`)
    .option('--archived', 'the archived ones instead of the active ones')
    .option('--filter <text>', 'case-insensitive prefix of the name')
    .option('--all', 'fetch every page')
    .option('--next-token <token>', 'continue from a previous page')
    .action(
      async (options: { archived?: boolean; filter?: string; all?: boolean; nextToken?: string }, command: Command) => {
        const ctx = commandContext(io, command.optsWithGlobals<GlobalOptions>());
        const client = ctx.client((await ctx.session()).token);
        const archived = options.archived === true;
        const { items: found, nextToken } = await collectPages(
          (token) =>
            spec.fetch(client, { archived, ...(options.filter ? { filter: options.filter } : {}), nextToken: token }),
          options,
        );
        ctx.print({ [spec.noun]: found, nextToken }, () =>
          found.length === 0
            ? `No ${archived ? 'archived' : 'active'} ${spec.noun} found.`
            : renderTable(found, spec.columns) +
              (nextToken ? `\n\nMore ${spec.noun}: add --all, or --next-token ${nextToken}` : ''),
        );
      },
    );
}
