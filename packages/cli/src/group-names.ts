import { ApiError, type Client } from './client.ts';

/**
 * A lookup of group names by id for a command's output, each group fetched once: people read a group's
 * name, not its id. A group the caller may not read (another business's, or gone) is "restricted", as
 * the console says.
 */
export function groupNameLookup(client: Client): (id: string | null) => Promise<string | null> {
  const names = new Map<string, Promise<string>>();
  return (id) => {
    if (!id) return Promise.resolve(null);
    let name = names.get(id);
    if (!name) {
      name = client.call('groups', 'getGroup', { id }).then(
        ({ group }) => group.name,
        (error: unknown) => {
          if (error instanceof ApiError && (error.status === 403 || error.status === 404)) return 'restricted';
          throw error;
        },
      );
      names.set(id, name);
    }
    return name;
  };
}
