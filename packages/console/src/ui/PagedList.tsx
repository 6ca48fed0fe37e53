import { messageOf } from '../api/client.ts';
import type { PagedQuery } from '../api/queries.ts';
import { Banner } from './Banner.tsx';
import { Button } from './Button.tsx';
import { type VirtualColumn, VirtualList } from './VirtualList.tsx';

/**
 * A paged query shown as a virtual list, loading more as it scrolls; when the query failed, its message
 * with 'Try again' instead. Rows are keyed by their `id`.
 */
export function PagedList<T extends { id: string }>({
  query,
  label,
  columns,
  emptyText,
}: {
  query: PagedQuery<T>;
  label: string;
  columns: VirtualColumn<T>[];
  emptyText: string;
}) {
  if (query.error) {
    return (
      <Banner tone="error" action={<Button onPress={query.reload}>Try again</Button>}>
        {messageOf(query.error)}
      </Banner>
    );
  }
  return (
    <VirtualList
      label={label}
      columns={columns}
      items={query.items}
      rowKey={(item) => item.id}
      hasMore={query.hasMore}
      isLoading={query.isLoading}
      onLoadMore={query.loadMore}
      emptyText={emptyText}
    />
  );
}
