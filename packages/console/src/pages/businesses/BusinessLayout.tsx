import type { Business } from '@medlocker/core';
import { Outlet, useLocation, useOutletContext, useParams } from 'react-router';
import { messageOf, rpc } from '../../api/client.ts';
import { useQuery } from '../../api/queries.ts';
import { useLivePush, useLiveSubscription } from '../../state/live.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { Loading, Page } from '../../ui/Page.tsx';
import { TabLinks } from '../../ui/Tabs.tsx';
import { ArchivedWarning } from './entity-parts.tsx';

export type BusinessContext = { business: Business; reload: () => void };

/** The business whose pages are showing, for the pages under `/businesses/{businessId}`. */
export const useBusiness = () => useOutletContext<BusinessContext>();

const tabIds = ['edit', 'users', 'machines', 'patients', 'settings'] as const;

/**
 * `/businesses/{businessId}/*`: loads the business once for its pages, shows its name, the tabs and,
 * when archived, the warning with date and user. Archive pushes from other consoles reload it live.
 */
export function BusinessLayout() {
  const { businessId = '' } = useParams();
  const location = useLocation();
  const query = useQuery((signal) => rpc('businesses', 'getBusiness', { id: businessId }, { signal }), [businessId]);
  // Archive pushes from other consoles (SPEC §4 live updates): the warning appears without a reload.
  useLiveSubscription({ businessId });
  const { reload } = query;
  useLivePush((push) => {
    const p = push.params;
    if ((push.action === 'archived' || push.action === 'unarchived') && p.businessId === businessId && !p.machineId)
      reload();
  });

  const base = `/businesses/${encodeURIComponent(businessId)}`;
  const rest = location.pathname.slice(base.length).split('/')[1] ?? '';
  const selected = (tabIds as readonly string[]).includes(rest) ? rest : 'details';
  const business = query.data?.business;

  if (!business) {
    return (
      <Page title="Business">
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
    <Page title={business.name} lead={business.archived ? 'Archived business' : undefined}>
      {business.archived && <ArchivedWarning kind="business" archived={business.archived} />}
      <TabLinks
        label="Business"
        selectedId={selected}
        tabs={[
          { id: 'details', label: 'Details', href: base },
          { id: 'edit', label: 'Edit', href: `${base}/edit` },
          { id: 'users', label: 'Users', href: `${base}/users` },
          { id: 'machines', label: 'Machines', href: `${base}/machines` },
          { id: 'patients', label: 'Patients', href: `${base}/patients` },
          { id: 'settings', label: 'Settings', href: `${base}/settings` },
        ]}
      />
      <Outlet context={{ business, reload: query.reload } satisfies BusinessContext} />
    </Page>
  );
}
