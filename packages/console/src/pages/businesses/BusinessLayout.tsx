import type { Business } from '@medlocker/core';
import { useOutletContext, useParams } from 'react-router';
import { useRpcQuery } from '../../api/queries.ts';
import { useAdministers } from '../../state/reach.ts';
import { ArchivableLayout, useLiveArchive } from './entity-parts.tsx';
import { t } from './i18n/index.ts';

export type BusinessContext = { business: Business; reload: () => void };

/** The business whose pages are showing, for the pages under `/businesses/{businessId}`. */
export const useBusiness = () => useOutletContext<BusinessContext>();

const tabIds = ['details', 'edit', 'orders', 'machines', 'users', 'patients', 'messages', 'stats', 'settings'] as const;
const tabsOf = (ids: readonly (typeof tabIds)[number][]) =>
  ids.map((id) => ({ id, label: t(`businesses.tab.${id}` as const) }));

/**
 * `/businesses/{businessId}/*`: loads the business once for its pages, shows its name, the tabs and,
 * when archived, the warning with date and user. Archive pushes from other consoles reload it live.
 */
export function BusinessLayout() {
  const { businessId = '' } = useParams();
  const query = useRpcQuery(['businesses', 'getBusiness', businessId], { id: businessId });
  // Editing is for support and the business's Admins: nobody else is offered a form they cannot save.
  const manages = useAdministers({ kind: 'business', id: businessId, groupId: query.data?.business.groupId ?? null });
  const { reload } = query;
  useLiveArchive({ businessId }, reload);
  return (
    <ArchivableLayout
      kind="business"
      entity={query.data?.business}
      error={query.error}
      reload={reload}
      base={`/businesses/${encodeURIComponent(businessId)}`}
      tabs={tabsOf(manages ? tabIds : tabIds.filter((id) => id !== 'edit'))}
      context={(business): BusinessContext => ({ business, reload })}
    />
  );
}
