import type { ReactNode } from 'react';
import type { Query } from '../api/queries.ts';
import { useFlashNotice } from '../shell/flash.ts';
import { Banner } from './Banner.tsx';
import { t } from './i18n/index.ts';
import { Link } from './Link.tsx';
import { Page } from './Page.tsx';
import { QueryView } from './QueryView.tsx';

/**
 * A page showing saved settings, with Edit to their edit page, and the notice that page left after
 * saving ('Global settings saved.').
 */
export function SavedSettings<T>({
  title,
  lead,
  editHref,
  query,
  children,
}: {
  title: string;
  lead: string;
  editHref: string;
  query: Query<T>;
  children: (data: T) => ReactNode;
}) {
  const notice = useFlashNotice();
  return (
    <Page
      title={title}
      lead={lead}
      actions={
        <Link href={editHref} variant="primary-button">
          {t('ui.edit')}
        </Link>
      }
    >
      {notice && <Banner tone="success">{notice}</Banner>}
      <QueryView query={query}>{children}</QueryView>
    </Page>
  );
}

/** An edit page whose form needs the settings loaded first. */
export function EditSettings<T>({
  title,
  query,
  children,
}: {
  title: string;
  query: Query<T>;
  children: (data: T) => ReactNode;
}) {
  return (
    <Page title={title}>
      <QueryView query={query}>{children}</QueryView>
    </Page>
  );
}
