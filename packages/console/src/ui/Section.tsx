import type { ReactNode } from 'react';
import { usePageTitle } from './Page.tsx';

export type SectionProps = {
  /** The section heading (h2) and the first part of the document title. */
  title: string;
  actions?: ReactNode;
  lead?: ReactNode;
  children: ReactNode;
};

/**
 * A page shown inside another page's frame (e.g. a business's Machines under the business name and
 * tabs): an h2 with its actions, and the content. Sets the document title like `Page`.
 */
export function Section({ title, actions, lead, children }: SectionProps) {
  usePageTitle(title);
  return (
    <section className="subpage" aria-label={title}>
      <SectionHead title={title} lead={lead} actions={actions} />
      {children}
    </section>
  );
}

/**
 * A section's h2 (with `id` for an `aria-labelledby`), the line under it when there is a `lead`, and its
 * actions at the other end.
 */
export function SectionHead({
  id,
  title,
  lead,
  actions,
}: { id?: string; title: ReactNode } & Omit<SectionProps, 'title' | 'children'>) {
  const heading = (
    <h2 className="section-title" id={id}>
      {title}
    </h2>
  );
  return (
    <div className="section-head">
      {lead === undefined ? (
        heading
      ) : (
        <div>
          {heading}
          {lead && <div className="page__lead">{lead}</div>}
        </div>
      )}
      {actions && <div className="page__actions">{actions}</div>}
    </div>
  );
}

/**
 * A titled part of a page that is not a page of its own (an account's Sessions, a user's second
 * factors): the section, labelled by its `SectionHead` (`id`), and the content.
 */
export function TitledSection({
  id,
  title,
  actions,
  className,
  children,
}: {
  id: string;
  title: ReactNode;
  actions?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <section className={className} aria-labelledby={id}>
      <SectionHead id={id} title={title} actions={actions} />
      {children}
    </section>
  );
}

/** A boxed part of a settings page (an integration's credentials, the QR signing key), its h3 labelling it. */
export function Panel({ id, title, children }: { id: string; title: ReactNode; children: ReactNode }) {
  return (
    <section className="panel" aria-labelledby={id}>
      <h3 id={id} className="panel__title">
        {title}
      </h3>
      {children}
    </section>
  );
}
