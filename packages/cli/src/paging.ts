import type { Command } from 'commander';
import type { Client } from './client.ts';
import { type CliIo, type CommandContext, signedIn } from './context.ts';
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

/** The options every paged list takes, after its own. */
export const pagingOptions = (command: Command): Command =>
  command.option('--all', 'fetch every page').option('--next-token <token>', 'continue from a previous page');

/**
 * Prints one page of a list: with --json the items under `key` and the next token; else `empty` when
 * nothing was found, or a table and, when there are more pages, how to read on (`more` is the plural:
 * 'More orders: add --all, …').
 */
export function printPage<T>(
  ctx: CommandContext,
  key: string,
  page: Page<T>,
  columns: Column<T>[],
  text: { empty: string; more: string },
): void {
  ctx.print({ [key]: page.items, nextToken: page.nextToken }, () => {
    if (page.items.length === 0) return text.empty;
    const more = page.nextToken ? `\n\nMore ${text.more}: add --all, or --next-token ${page.nextToken}` : '';
    return renderTable(page.items, columns) + more;
  });
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
  pagingOptions(
    parent
      .command('list')
      .description(`List ${spec.noun} by name (25 a page; --all for every page)`)
      .option('--archived', 'the archived ones instead of the active ones')
      .option('--filter <text>', 'case-insensitive prefix of the name'),
  ).action(
    async (options: { archived?: boolean; filter?: string; all?: boolean; nextToken?: string }, command: Command) => {
      const { ctx, client } = await signedIn(io, command);
      const archived = options.archived === true;
      const page = await collectPages(
        (token) =>
          spec.fetch(client, { archived, ...(options.filter ? { filter: options.filter } : {}), nextToken: token }),
        options,
      );
      printPage(ctx, spec.noun, page, spec.columns, {
        empty: `No ${archived ? 'archived' : 'active'} ${spec.noun} found.`,
        more: spec.noun,
      });
    },
  );
}
