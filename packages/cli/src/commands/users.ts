import type { Role, User } from '@medlocker/core';
import { type Command, Option } from 'commander';
import { type CliIo, contextOf, signedIn, UsageError } from '../context.ts';
import { collectPages, pagingOptions, printPage } from '../paging.ts';
import { showCommand } from '../show-command.ts';
import { renderFields, renderTable } from '../ui/table.tsx';

const ROLES = ['Support', 'Developer', 'Business', 'Group'] as const;
type RoleChoice = (typeof ROLES)[number];
const RESOURCE_TYPE = { Business: 'business', Group: 'group' } as const;

const needsResource = (role: RoleChoice): role is 'Business' | 'Group' => role === 'Business' || role === 'Group';

const userColumns = [
  { header: 'ID', value: (u: User) => u.id },
  { header: 'Name', value: (u: User) => u.name },
  { header: 'Email', value: (u: User) => u.email },
  { header: 'Access levels', value: (u: User) => u.accessLevels.join(', ') },
];

const roleColumns = [
  { header: 'Role', value: (r: Role) => r.name },
  // SPEC §2: '*' when the role has no resource, 'restricted' when its name cannot be resolved.
  {
    header: 'Resource',
    value: (r: Role) =>
      r.resource === null ? '*' : r.resourceName ? `${r.resourceName} (${r.resource})` : 'restricted',
  },
  { header: 'Access levels', value: (r: Role) => r.accessLevels.join(', ') },
];

/** `medlocker users list | show | add-role | remove-role`. */
export function usersCommands(program: Command, io: CliIo): void {
  const users = program.command('users').description('Support users and roles');
  listCommand(users, io);
  showCommand(users, io, {
    name: 'show',
    description: "Show a user's details, identity provider and roles",
    id: 'user id',
    fetch: (client, id) => client.call('users', 'getUser', { id }),
    text: (details) =>
      [
        renderFields([
          ['Name', details.user.name],
          ['Email', details.user.email],
          ['First name', details.user.givenName || '-'],
          ['Surname', details.user.familyName || '-'],
          ['Identity provider', details.identityProvider?.name ?? '-'],
          ['User id', details.user.id],
        ]),
        '',
        details.roles.length === 0 ? 'The user has no roles' : renderTable(details.roles, roleColumns),
      ].join('\n'),
  });
  addRoleCommand(users, io);
  removeRoleCommand(users, io);
}

type ListOptions = { role: RoleChoice; resource?: string; filter?: string; all?: boolean; nextToken?: string };

function listCommand(users: Command, io: CliIo): void {
  pagingOptions(
    users
      .command('list')
      .description('List the users holding a role (25 a page; --all for every page)')
      .addOption(new Option('--role <role>', 'role name').choices(ROLES).default('Support'))
      .option('--resource <id>', 'business or group id, for Business and Group roles')
      .option('--filter <text>', 'prefix of email, given, family or full name'),
  ).action(async (options: ListOptions, command: Command) => {
    const { ctx, client } = await signedIn(io, command);
    const page = await collectPages<User>(
      async (token) => {
        const page = await client.call('users', 'getUsersByRole', {
          roleName: options.role,
          ...(options.resource ? { roleResource: options.resource } : {}),
          ...(options.filter ? { filterText: options.filter } : {}),
          nextToken: token,
        });
        return { items: page.users, nextToken: page.nextToken };
      },
      {
        ...options,
        onPage: (count, token) => {
          if (options.all && token && io.interactive && !ctx.json) io.stderr(`\rFetched ${count} users…`);
        },
      },
    );
    if (options.all && io.interactive && !ctx.json && page.items.length > 25) io.stderr('\r\x1b[K');
    printPage(ctx, 'users', page, userColumns, { empty: 'No users found.', more: 'users' });
  });
}

type AddRoleOptions = { email: string; role: RoleChoice; resource?: string; admin?: boolean; sso?: boolean };

function addRoleCommand(users: Command, io: CliIo): void {
  users
    .command('add-role')
    .description(
      'Give a role to the user of an email (the user is created and invited when new; a pharmacy Admin invites anyone not already theirs)',
    )
    .requiredOption('--email <email>', "the user's email address")
    .addOption(new Option('--role <role>', 'role to add').choices(ROLES).makeOptionMandatory())
    .option('--resource <id>', 'business or group id (required for Business and Group)')
    .option('--admin', 'add as an administrator of the business or group')
    .option('--sso', 'new users sign in with the default identity provider')
    .action(async (options: AddRoleOptions, command: Command) => {
      const ctx = contextOf(io, command);
      if (needsResource(options.role) && !options.resource) {
        throw new UsageError(`--resource is required for a ${options.role} role`);
      }
      if (!needsResource(options.role) && (options.resource || options.admin)) {
        throw new UsageError(`A ${options.role} role takes neither --resource nor --admin`);
      }
      const client = ctx.client((await ctx.session()).token);
      const result = await client.call('auth', 'addRoles', {
        addIdpByDefault: options.sso === true,
        email: options.email,
        frontEnd: options.role === 'Support' ? 'support' : 'pharmacy',
        ...(needsResource(options.role)
          ? { resourceId: options.resource ?? null, resourceType: RESOURCE_TYPE[options.role] }
          : {}),
        roles: [
          {
            name: options.role,
            description: '',
            resource: options.resource ?? null,
            accessLevels: options.admin ? ['Admin'] : [],
          },
        ],
      });
      const on = `${options.resource ? ` on ${options.resource}` : ''}${options.admin ? ' (Admin)' : ''}`;
      ctx.print(result, () =>
        result.outcome === 'invited'
          ? `Invited ${options.email}: the ${options.role} role${on} is theirs once they accept it`
          : `${result.created ? 'Created and invited' : 'Updated'} user ${result.userId}: ${options.role} role added${on}`,
      );
    });
}

function removeRoleCommand(users: Command, io: CliIo): void {
  users
    .command('remove-role')
    .description('Take a role away from a user')
    .requiredOption('--user <id>', 'user id')
    .requiredOption('--role <role>', 'role name')
    .option('--resource <id>', 'business or group id of the role')
    .action(async (options: { user: string; role: string; resource?: string }, command: Command) => {
      const { ctx, client } = await signedIn(io, command);
      const result = await client.call('auth', 'removeRole', {
        userId: options.user,
        roleName: options.role as Role['name'],
        roleResource: options.resource ?? null,
      });
      const on = options.resource ? ` on ${options.resource}` : '';
      ctx.print(result, () => `Removed the ${options.role} role${on} from user ${options.user}`);
    });
}
