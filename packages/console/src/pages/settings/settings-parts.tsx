import type { AreaName } from '@medlocker/core';
import type { ReactNode } from 'react';
import { type MethodOf, type RpcOptions, type RpcOutput, rpc } from '../../api/client.ts';
import { useQuery } from '../../api/queries.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Link } from '../../ui/Link.tsx';
import { QueryView } from '../../ui/QueryView.tsx';
import { useBusiness } from '../businesses/BusinessLayout.tsx';
import { t } from './i18n/index.ts';

/** The heading of a settings page, with the way back to the settings index. */
export function SettingsHeader({ title, children }: { title: string; children?: ReactNode }) {
  const { business } = useBusiness();
  return (
    <>
      <nav aria-label={t('businessSettings.breadcrumb')} className="breadcrumb">
        <Link href={`/businesses/${encodeURIComponent(business.id)}/settings`}>{t('businessSettings.title')}</Link>
        <span aria-hidden="true"> / </span>
        <span>{title}</span>
      </nav>
      <h2 className="section-title">{title}</h2>
      {children}
    </>
  );
}

/** SPEC §4: an archived business's settings are read-only. */
export function ReadOnlyNotice({ archived }: { archived: boolean }) {
  if (!archived) return null;
  return <Banner tone="info">{t('businessSettings.readOnly')}</Banner>;
}

/** A method answering a business's settings and whether they are archived, given the business id. */
type ReadSettings<A extends AreaName, M extends MethodOf<A>> = (
  area: A,
  method: M,
  input: { businessId: string },
  options: RpcOptions,
) => Promise<RpcOutput<A, M> & { archived: boolean }>;

/**
 * A settings page that reads its settings with one call for the business (`read`: its area and
 * method): the heading, then `form` with what the call answered, read-only (SPEC §4) when the business
 * or its settings are archived.
 */
export function BusinessSettingsPage<A extends AreaName, M extends MethodOf<A>>({
  title,
  read: [area, method],
  form,
}: {
  title: string;
  read: readonly [A, M];
  form: (data: RpcOutput<A, M>, page: { businessId: string; archived: boolean }) => ReactNode;
}) {
  const { business } = useBusiness();
  const query = useQuery(
    (signal) => (rpc as ReadSettings<A, M>)(area, method, { businessId: business.id }, { signal }),
    [area, method, business.id],
    { fresh: true },
  );
  return (
    <SettingsHeader title={title}>
      <QueryView query={query}>
        {(data) => form(data, { businessId: business.id, archived: data.archived || Boolean(business.archived) })}
      </QueryView>
    </SettingsHeader>
  );
}
