import type { Group } from '@medlocker/core';
import { useOutletContext, useParams } from 'react-router';
import { rpc } from '../../api/client.ts';
import { useQuery } from '../../api/queries.ts';
import { useAdministers } from '../../state/reach.ts';
import { ArchivableLayout, useLiveArchive } from '../businesses/entity-parts.tsx';

export type GroupContext = { group: Group; reload: () => void };

/** The group whose pages are showing, for the pages under `/groups/{groupId}`. */
export const useGroup = () => useOutletContext<GroupContext>();

const tabs = [
  { id: 'details', label: 'Details' },
  { id: 'edit', label: 'Edit' },
  { id: 'businesses', label: 'Businesses' },
  { id: 'users', label: 'Users' },
  { id: 'stats', label: 'Stats' },
];

/**
 * `/groups/{groupId}/*`: loads the group for its pages; its name, the tabs (Details/Edit, Businesses,
 * Users, Stats) and the archived banner. Archive pushes from other consoles reload it live.
 */
export function GroupLayout() {
  const { groupId = '' } = useParams();
  const query = useQuery(
    (signal) => rpc('groups', 'getGroup', { id: groupId }, { signal }),
    ['groups', 'getGroup', groupId],
  );
  // Editing is for support and the group's Admins: nobody else is offered a form they cannot save.
  const manages = useAdministers({ kind: 'group', id: groupId });
  const { reload } = query;
  useLiveArchive({ groupId }, reload);
  return (
    <ArchivableLayout
      kind="group"
      entity={query.data?.group}
      error={query.error}
      reload={reload}
      base={`/groups/${encodeURIComponent(groupId)}`}
      tabs={manages ? tabs : tabs.filter((t) => t.id !== 'edit')}
      context={(group): GroupContext => ({ group, reload })}
    />
  );
}
