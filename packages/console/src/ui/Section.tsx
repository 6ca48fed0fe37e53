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
      <div className="section-head">
        <div>
          <h2 className="section-title">{title}</h2>
          {lead && <div className="page__lead">{lead}</div>}
        </div>
        {actions && <div className="page__actions">{actions}</div>}
      </div>
      {children}
    </section>
  );
}
