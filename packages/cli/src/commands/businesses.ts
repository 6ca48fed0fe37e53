import type { Business } from '@medlocker/core';
import type { Command } from 'commander';
import type { Client } from '../client.ts';
import type { CliIo } from '../context.ts';
import { groupNameLookup } from '../group-names.ts';
import { archivableList } from '../paging.ts';
import { showCommand } from '../show-command.ts';
import { renderFields } from '../ui/table.tsx';
import { archiveCommands } from './businesses-bulk.tsx';

const oneLine = (a: Business['address']) =>
  [a.line1, a.line2, a.line3, a.postTown, a.postcode].filter(Boolean).join(', ');
const archivedText = (a: Business['archived']) =>
  a ? `${new Date(a.at).toISOString().slice(0, 10)} by ${a.userDisplayName ?? a.userId ?? 'the system'}` : '-';

/** A business as listed: with its group's name (null without a group; "restricted" when unreadable). */
type Listed = Business & { groupName: string | null };

/** The columns of a group's businesses (their group is the one shown). */
export const businessColumns = [
  { header: 'ID', value: (b: Business) => b.id },
  { header: 'Name', value: (b: Business) => b.name },
  { header: 'Address', value: (b: Business) => oneLine(b.address) },
];
const columns = [...businessColumns, { header: 'Group', value: (b: Listed) => b.groupName ?? '-' }];

/** `businesses` with their groups' names, each group read once. */
async function withGroupNames(client: Client, businesses: Business[]): Promise<Listed[]> {
  const nameOf = groupNameLookup(client);
  return Promise.all(businesses.map(async (b) => ({ ...b, groupName: await nameOf(b.groupId) })));
}
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
      return { items: await withGroupNames(client, page.businesses), nextToken: page.nextToken };
    },
  });

  showCommand(businesses, io, {
    name: 'show',
    description: "Show a business's details",
    id: 'business id',
    fetch: async (client, id) => {
      const { business } = await client.call('businesses', 'getBusiness', { id });
      return { business, groupName: await groupNameLookup(client)(business.groupId) };
    },
    text: ({ business: b, groupName }) =>
      renderFields([
        ['Name', b.name],
        ['Email', b.email || '-'],
        ['Address', oneLine(b.address) || '-'],
        ['Group', groupName ? `${groupName} (${b.groupId})` : '-'],
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
