import type { Group } from '@medlocker/core';
import { Outlet, useLocation, useOutletContext, useParams } from 'react-router';
import { messageOf, rpc } from '../../api/client.ts';
import { useQuery } from '../../api/queries.ts';
import { useLivePush, useLiveSubscription } from '../../state/live.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { Loading, Page } from '../../ui/Page.tsx';
import { TabLinks } from '../../ui/Tabs.tsx';
import { ArchivedWarning } from '../businesses/entity-parts.tsx';

export type GroupContext = { group: Group; reload: () => void };

/** The group whose pages are showing, for the pages under `/groups/{groupId}`. */
export const useGroup = () => useOutletContext<GroupContext>();

const tabIds = ['edit', 'businesses', 'users'] as const;

/**
 * `/groups/{groupId}/*`: loads the group for its pages; its name, the tabs (Details/Edit, Businesses,
 * Users) and the archived banner. Archive pushes from other consoles reload it live.
 */
export function GroupLayout() {
  const { groupId = '' } = useParams();
  const location = useLocation();
  const query = useQuery((signal) => rpc('groups', 'getGroup', { id: groupId }, { signal }), [groupId]);
  // Archive pushes from other consoles (SPEC §4 live updates): the banner appears without a reload.
  useLiveSubscription({ groupId });
  const { reload } = query;
  useLivePush((push) => {
    if ((push.action === 'archived' || push.action === 'unarchived') && push.params.groupId === groupId) reload();
  });

  const base = `/groups/${encodeURIComponent(groupId)}`;
  const rest = location.pathname.slice(base.length).split('/')[1] ?? '';
  const selected = (tabIds as readonly string[]).includes(rest) ? rest : 'details';
  const group = query.data?.group;

  if (!group) {
    return (
      <Page title="Group">
        {query.error ? (
          <Banner tone="error" action={<Button onPress={query.reload}>Try again</Button>}>
            {messageOf(query.error)}
          </Banner>
        ) : (
          <Loading />
        )}
      </Page>
    );
  }

  return (
    <Page title={group.name} lead={group.archived ? 'Archived group' : undefined}>
      {group.archived && <ArchivedWarning kind="group" archived={group.archived} />}
      <TabLinks
        label="Group"
        selectedId={selected}
        tabs={[
          { id: 'details', label: 'Details', href: base },
          { id: 'edit', label: 'Edit', href: `${base}/edit` },
          { id: 'businesses', label: 'Businesses', href: `${base}/businesses` },
          { id: 'users', label: 'Users', href: `${base}/users` },
        ]}
      />
      <Outlet context={{ group, reload: query.reload } satisfies GroupContext} />
    </Page>
  );
}
