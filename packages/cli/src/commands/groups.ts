import type { Business, Group } from '@medlocker/core';
import type { Command } from 'commander';
import { type CliIo, commandContext, type GlobalOptions } from '../context.ts';
import { archivableList, collectPages } from '../paging.ts';
import { renderFields, renderTable } from '../ui/table.tsx';
import { archivedLabel, businessAddress, businessColumns } from './businesses.ts';
import { idsFrom, runBulk } from './businesses-bulk.tsx';

const columns = [
  { header: 'ID', value: (g: Group) => g.id },
  { header: 'Name', value: (g: Group) => g.name },
  { header: 'Email', value: (g: Group) => g.email || '-' },
  { header: 'Postcode', value: (g: Group) => g.address.postcode ?? '-' },
];

/** `medlocker groups list | show | link | unlink | archive | unarchive`. */
export function groupsCommands(program: Command, io: CliIo): void {
  const groups = program.command('groups').description('Groups of businesses: list, show, link, archive');

  archivableList(groups, io, {
    noun: 'groups',
    columns,
    fetch: async (client, q) => {
      const page = await client.call('groups', 'listGroups', {
        archived: q.archived,
        ...(q.filter ? { filter: q.filter } : {}),
        nextToken: q.nextToken,
      });
      return { items: page.groups, nextToken: page.nextToken };
    },
  });

  groups
    .command('show')
    .description("Show a group's details and its businesses (archived ones too)")
    .argument('<id>', 'group id')
    .action(async (id: string, _options: unknown, command: Command) => {
      const ctx = commandContext(io, command.optsWithGlobals<GlobalOptions>());
      const client = ctx.client((await ctx.session()).token);
      const { group: g } = await client.call('groups', 'getGroup', { id });
      const { items: businesses } = await collectPages<Business>(
        async (token) => {
          const page = await client.call('businesses', 'listGroupedBusinesses', {
            groupId: id,
            archived: true,
            nextToken: token,
          });
          return { items: page.businesses, nextToken: page.nextToken };
        },
        { all: true },
      );
      ctx.print({ group: g, businesses }, () =>
        [
          renderFields([
            ['Name', g.name],
            ['Email', g.email || '-'],
            ['Address', businessAddress(g.address) || '-'],
            ['Parent group', g.parentId ?? '-'],
            ['Logo', g.logo ? `${g.logo.path} on ${g.logo.backgroundColor}` : '-'],
            ['Archived', archivedLabel(g.archived)],
            ['Group id', g.id],
          ]),
          '',
          businesses.length === 0 ? 'No businesses found' : renderTable(businesses, businessColumns),
        ].join('\n'),
      );
    });

  groups
    .command('link')
    .description('Link businesses to a group: ids as arguments or --from FILE; each reported, past failures')
    .argument('<groupId>', 'the group')
    .argument('[businessIds...]', 'business ids')
    .option('--from <file>', 'read business ids from a file, - for standard input')
    .action(async (groupId: string, args: string[], options: { from?: string }, command: Command) => {
      const ctx = commandContext(io, command.optsWithGlobals<GlobalOptions>());
      const ids = await idsFrom(io, args, options.from);
      const client = ctx.client((await ctx.session()).token);
      // One call a business, so one bad id does not hold back the others (linkGroup is all or nothing).
      await runBulk(ctx, 'Link', ids, (id) => client.call('businesses', 'linkGroup', { groupId, businessIds: [id] }));
    });

  groups
    .command('unlink')
    .description('Take businesses out of their group: ids as arguments or --from FILE')
    .argument('[businessIds...]', 'business ids')
    .option('--from <file>', 'read business ids from a file, - for standard input')
    .action(async (args: string[], options: { from?: string }, command: Command) => {
      const ctx = commandContext(io, command.optsWithGlobals<GlobalOptions>());
      const ids = await idsFrom(io, args, options.from);
      const client = ctx.client((await ctx.session()).token);
      await runBulk(ctx, 'Unlink', ids, (id) => client.call('businesses', 'unlinkGroup', { id }));
    });

  for (const [name, method, label] of [
    ['archive', 'archiveGroup', 'Archive'],
    ['unarchive', 'unarchiveGroup', 'Unarchive'],
  ] as const) {
    groups
      .command(name)
      .description(`${label} groups: ids as arguments or --from FILE (one a line, # comments); goes on past failures`)
      .argument('[ids...]', 'group ids')
      .option('--from <file>', 'read ids from a file, - for standard input')
      .action(async (args: string[], options: { from?: string }, command: Command) => {
        const ctx = commandContext(io, command.optsWithGlobals<GlobalOptions>());
        const ids = await idsFrom(io, args, options.from);
        const client = ctx.client((await ctx.session()).token);
        await runBulk(ctx, label, ids, (id) => client.call('groups', method, { id }));
      });
  }
}
