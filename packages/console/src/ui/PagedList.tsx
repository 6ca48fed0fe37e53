import type { PagedQuery } from '../api/queries.ts';
import { LoadError } from './LoadError.tsx';
import { type VirtualColumn, VirtualList } from './VirtualList.tsx';

/**
 * A paged query shown as a virtual list, loading more as it scrolls; when the query failed, its message
 * with 'Try again' instead. Rows are keyed by their `id`; `items` replaces the query's own rows when the
 * page adds some (e.g. events pushed live, on top).
 */
export function PagedList<T extends { id: string }>({
  query,
  items = query.items,
  label,
  columns,
  emptyText,
}: {
  query: PagedQuery<T>;
  items?: T[];
  label: string;
  columns: VirtualColumn<T>[];
  emptyText: string;
}) {
  if (query.error) {
    return <LoadError error={query.error} onRetry={query.reload} />;
  }
  return (
    <VirtualList
      label={label}
      columns={columns}
      items={items}
      rowKey={(item) => item.id}
      hasMore={query.hasMore}
      isLoading={query.isLoading}
      onLoadMore={query.loadMore}
      emptyText={emptyText}
    />
  );
}
