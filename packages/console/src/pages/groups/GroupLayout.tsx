import type { Group } from '@medlocker/core';
import { useOutletContext, useParams } from 'react-router';
import { useRpcQuery } from '../../api/queries.ts';
import { ArchivableLayout } from '../businesses/entity-parts.tsx';
import { t } from './i18n/index.ts';

export type GroupContext = { group: Group; reload: () => void };

/** The group whose pages are showing, for the pages under `/groups/{groupId}`. */
export const useGroup = () => useOutletContext<GroupContext>();

const tabIds = ['details', 'edit', 'businesses', 'users', 'stats'] as const;

/**
 * `/groups/{groupId}/*`: loads the group for its pages; its name, the tabs (Details/Edit, Businesses,
 * Users, Stats) and the archived banner.
 */
export function GroupLayout() {
  const { groupId = '' } = useParams();
  const query = useRpcQuery(['groups', 'getGroup', groupId], { id: groupId });
  const { reload } = query;
  return (
    <ArchivableLayout
      reach={{ kind: 'group', id: groupId }}
      entity={query.data?.group}
      error={query.error}
      reload={reload}
      tabs={tabIds.map((id) => ({ id, label: t(`groups.tab.${id}` as const) }))}
      context={(group): GroupContext => ({ group, reload })}
    />
  );
}
