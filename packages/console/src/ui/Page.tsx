import { type ReactNode, useEffect } from 'react';
import { useProductName } from '../state/session.ts';
import { t } from './i18n/index.ts';

/** Sets the document title: '{Page} | {product}' (SPEC §2: titles carry the product name as suffix). */
export function usePageTitle(title: string) {
  const product = useProductName();
  useEffect(() => {
    document.title = title ? `${title} | ${product}` : product;
  }, [title, product]);
}

export type PageProps = {
  /** The page heading and the first part of the document title. */
  title: string;
  /** Buttons beside the heading (Add, Reload…). */
  actions?: ReactNode;
  /** A line under the heading. */
  lead?: ReactNode;
  children: ReactNode;
};

/** A page of the console: the heading (h1), its actions, and the content. */
export function Page({ title, actions, lead, children }: PageProps) {
  usePageTitle(title);
  return (
    <section className="page" aria-labelledby="page-title">
      <header className="page__header">
        <div>
          <h1 id="page-title" className="page__title" tabIndex={-1}>
            {title}
          </h1>
          {lead && <p className="page__lead">{lead}</p>}
        </div>
        {actions && <div className="page__actions">{actions}</div>}
      </header>
      {children}
    </section>
  );
}

/** A quiet 'Loading…' that screen readers announce. */
export function Loading({ label = t('ui.loading') }: { label?: string }) {
  return (
    <p className="loading" role="status">
      <span className="loading__spinner" aria-hidden="true" />
      {label}
    </p>
  );
}

/** What a list or area shows when it has nothing yet, and what it will hold. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty-state">
      <h2 className="empty-state__title">{title}</h2>
      {children && <div className="empty-state__body">{children}</div>}
    </div>
  );
}
