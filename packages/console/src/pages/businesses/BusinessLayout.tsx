import type { Business } from '@medlocker/core';
import { useOutletContext, useParams } from 'react-router';
import { useRpcQuery } from '../../api/queries.ts';
import { ArchivableLayout } from './entity-parts.tsx';
import { t } from './i18n/index.ts';

export type BusinessContext = { business: Business; reload: () => void };

/** The business whose pages are showing, for the pages under `/businesses/{businessId}`. */
export const useBusiness = () => useOutletContext<BusinessContext>();

const tabIds = ['details', 'edit', 'orders', 'machines', 'users', 'patients', 'messages', 'stats', 'settings'] as const;

/**
 * `/businesses/{businessId}/*`: loads the business once for its pages, shows its name, the tabs and,
 * when archived, the warning with date and user.
 */
export function BusinessLayout() {
  const { businessId = '' } = useParams();
  const query = useRpcQuery(['businesses', 'getBusiness', businessId], { id: businessId });
  const { reload } = query;
  return (
    <ArchivableLayout
      reach={{ kind: 'business', id: businessId, groupId: query.data?.business.groupId ?? null }}
      entity={query.data?.business}
      error={query.error}
      reload={reload}
      tabs={tabIds.map((id) => ({ id, label: t(`businesses.tab.${id}` as const) }))}
      context={(business): BusinessContext => ({ business, reload })}
    />
  );
}
