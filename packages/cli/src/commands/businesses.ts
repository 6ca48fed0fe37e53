import type { Business } from '@medlocker/core';
import type { Command } from 'commander';
import { type CliIo, commandContext, type GlobalOptions } from '../context.ts';
import { archivableList } from '../paging.ts';
import { renderFields } from '../ui/table.tsx';
import { idsFrom, runBulk } from './businesses-bulk.tsx';

const oneLine = (a: Business['address']) =>
  [a.line1, a.line2, a.line3, a.postTown, a.postcode].filter(Boolean).join(', ');
const archivedText = (a: Business['archived']) =>
  a ? `${new Date(a.at).toISOString().slice(0, 10)} by ${a.userDisplayName ?? a.userId ?? 'the system'}` : '-';

const columns = [
  { header: 'ID', value: (b: Business) => b.id },
  { header: 'Name', value: (b: Business) => b.name },
  { header: 'Address', value: (b: Business) => oneLine(b.address) },
  { header: 'Group', value: (b: Business) => b.groupId ?? '-' },
];

export const businessColumns = columns;
export const businessAddress = oneLine;
export const archivedLabel = archivedText;

/** `medlocker businesses list | show | archive | unarchive`. */
export function businessesCommands(program: Command, io: CliIo): void {
  const businesses = program.command('businesses').description('Businesses (pharmacies): list, show, archive');

  archivableList(businesses, io, {
    noun: 'businesses',
    columns,
    fetch: async (client, q) => {
      const page = await client.call('businesses', 'listBusinesses', {
        archived: q.archived,
        ...(q.filter ? { filterText: q.filter } : {}),
        nextToken: q.nextToken,
      });
      return { items: page.businesses, nextToken: page.nextToken };
    },
  });

  businesses
    .command('show')
    .description("Show a business's details")
    .argument('<id>', 'business id')
    .action(async (id: string, _options: unknown, command: Command) => {
      const ctx = commandContext(io, command.optsWithGlobals<GlobalOptions>());
      const client = ctx.client((await ctx.session()).token);
      const { business: b } = await client.call('businesses', 'getBusiness', { id });
      ctx.print({ business: b }, () =>
        renderFields([
          ['Name', b.name],
          ['Email', b.email || '-'],
          ['Address', oneLine(b.address) || '-'],
          ['Group', b.groupId ?? '-'],
          ['Notification emails', b.notificationEmails.join(', ') || '-'],
          ['Keyholder mobiles', b.keyholdersMobileNumbers.join(', ') || '-'],
          ['Logo', b.logo ? `${b.logo.path} on ${b.logo.backgroundColor}` : '-'],
          ['Archived', archivedText(b.archived)],
          ['Business id', b.id],
        ]),
      );
    });

  for (const [name, method, label] of [
    ['archive', 'archiveBusiness', 'Archive'],
    ['unarchive', 'unarchiveBusiness', 'Unarchive'],
  ] as const) {
    businesses
      .command(name)
      .description(
        `${label} businesses: ids as arguments or --from FILE (one a line, # comments); goes on past failures`,
      )
      .argument('[ids...]', 'business ids')
      .option('--from <file>', 'read ids from a file, - for standard input')
      .action(async (args: string[], options: { from?: string }, command: Command) => {
        const ctx = commandContext(io, command.optsWithGlobals<GlobalOptions>());
        const ids = await idsFrom(io, args, options.from);
        const client = ctx.client((await ctx.session()).token);
        await runBulk(ctx, label, ids, (id) => client.call('businesses', method, { id }));
      });
  }
}
