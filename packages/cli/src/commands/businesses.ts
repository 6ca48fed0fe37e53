import type { Business } from '@medlocker/core';
import type { Command } from 'commander';
import type { CliIo } from '../context.ts';
import { archivableList } from '../paging.ts';
import { showCommand } from '../show-command.ts';
import { renderFields } from '../ui/table.tsx';
import { archiveCommands } from './businesses-bulk.tsx';

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

  showCommand(businesses, io, {
    name: 'show',
    description: "Show a business's details",
    id: 'business id',
    fetch: async (client, id) => ({ business: (await client.call('businesses', 'getBusiness', { id })).business }),
    text: ({ business: b }) =>
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
  });

  archiveCommands(businesses, io, {
    noun: 'businesses',
    idsLabel: 'business ids',
    archive: (client, id) => client.call('businesses', 'archiveBusiness', { id }),
    unarchive: (client, id) => client.call('businesses', 'unarchiveBusiness', { id }),
  });
}
