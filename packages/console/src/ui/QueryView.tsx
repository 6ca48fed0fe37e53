import type { ReactNode } from 'react';
import type { Query } from '../api/queries.ts';
import { LoadError } from './LoadError.tsx';
import { Loading } from './Page.tsx';

/**
 * What a page shows of a query: its error in words with 'Try again' when loading failed, 'Loading…'
 * (or `loadingLabel`) until the data comes, then `children(data)`.
 */
export function QueryView<T>({
  query,
  loadingLabel,
  children,
}: {
  query: Query<T>;
  loadingLabel?: string;
  children: (data: T) => ReactNode;
}) {
  if (query.error) return <LoadError error={query.error} onRetry={query.reload} />;
  if (query.data === undefined) return <Loading label={loadingLabel} />;
  return children(query.data);
}
