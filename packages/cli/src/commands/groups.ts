import type { Business, Group } from '@medlocker/core';
import type { Command } from 'commander';
import type { Client } from '../client.ts';
import type { CliIo } from '../context.ts';
import { groupNameLookup } from '../group-names.ts';
import { archivableList, collectPages } from '../paging.ts';
import { showCommand } from '../show-command.ts';
import { renderFields, renderTable } from '../ui/table.tsx';
import { archivedLabel, businessAddress, businessColumns } from './businesses.ts';
import { archiveCommands, bulkAction } from './businesses-bulk.tsx';

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

  showCommand(groups, io, {
    name: 'show',
    description: "Show a group's details and its businesses (archived ones too)",
    id: 'group id',
    fetch: groupAndBusinesses,
    text: ({ group: g, parentName, businesses }) =>
      [
        renderFields([
          ['Name', g.name],
          ['Email', g.email || '-'],
          ['Address', businessAddress(g.address) || '-'],
          ['Parent group', parentName ? `${parentName} (${g.parentId})` : '-'],
          ['Logo', g.logo ? `${g.logo.path} on ${g.logo.backgroundColor}` : '-'],
          ['Archived', archivedLabel(g.archived)],
          ['Group id', g.id],
        ]),
        '',
        businesses.length === 0 ? 'No businesses found' : renderTable(businesses, businessColumns),
      ].join('\n'),
  });
  linkCommands(groups, io);
  archiveCommands(groups, io, {
    noun: 'groups',
    idsLabel: 'group ids',
    archive: (client, id) => client.call('groups', 'archiveGroup', { id }),
    unarchive: (client, id) => client.call('groups', 'unarchiveGroup', { id }),
  });
}

/** A group and its businesses, archived ones too. */
async function groupAndBusinesses(client: Client, id: string) {
  const { group } = await client.call('groups', 'getGroup', { id });
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
  return { group, parentName: await groupNameLookup(client)(group.parentId), businesses };
}

/** `link` and `unlink`: a business joins a group, or leaves its group. */
function linkCommands(groups: Command, io: CliIo): void {
  groups
    .command('link')
    .description('Link businesses to a group: ids as arguments or --from FILE; each reported, past failures')
    .argument('<groupId>', 'the group')
    .argument('[businessIds...]', 'business ids')
    .option('--from <file>', 'read business ids from a file, - for standard input')
    .action((groupId: string, args: string[], options: { from?: string }, command: Command) =>
      bulkAction(io, command, {
        label: 'Link',
        args,
        from: options.from,
        // One call a business, so one bad id does not hold back the others (linkGroup is all or nothing).
        call: (client, id) => client.call('businesses', 'linkGroup', { groupId, businessIds: [id] }),
      }),
    );

  groups
    .command('unlink')
    .description('Take businesses out of their group: ids as arguments or --from FILE')
    .argument('[businessIds...]', 'business ids')
    .option('--from <file>', 'read business ids from a file, - for standard input')
    .action((args: string[], options: { from?: string }, command: Command) =>
      bulkAction(io, command, {
        label: 'Unlink',
        args,
        from: options.from,
        call: (client, id) => client.call('businesses', 'unlinkGroup', { id }),
      }),
    );
}
