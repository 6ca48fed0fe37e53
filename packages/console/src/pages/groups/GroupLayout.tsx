import type { Group } from '@medlocker/core';
import { useOutletContext, useParams } from 'react-router';
import { useRpcQuery } from '../../api/queries.ts';
import { useAdministers } from '../../state/reach.ts';
import { ArchivableLayout, useLiveArchive } from '../businesses/entity-parts.tsx';
import { t } from './i18n/index.ts';

export type GroupContext = { group: Group; reload: () => void };

/** The group whose pages are showing, for the pages under `/groups/{groupId}`. */
export const useGroup = () => useOutletContext<GroupContext>();

const tabIds = ['details', 'edit', 'businesses', 'users', 'stats'] as const;
const tabsOf = (ids: readonly (typeof tabIds)[number][]) =>
  ids.map((id) => ({ id, label: t(`groups.tab.${id}` as const) }));

/**
 * `/groups/{groupId}/*`: loads the group for its pages; its name, the tabs (Details/Edit, Businesses,
 * Users, Stats) and the archived banner. Archive pushes from other consoles reload it live.
 */
export function GroupLayout() {
  const { groupId = '' } = useParams();
  const query = useRpcQuery(['groups', 'getGroup', groupId], { id: groupId });
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
      tabs={tabsOf(manages ? tabIds : tabIds.filter((id) => id !== 'edit'))}
      context={(group): GroupContext => ({ group, reload })}
    />
  );
}
