import type { ReactNode } from 'react';

/** One term and its value in a details block (`<dl className="details">`). */
export function DetailsItem({ term, children }: { term: ReactNode; children: ReactNode }) {
  return (
    <div className="details__item">
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}
