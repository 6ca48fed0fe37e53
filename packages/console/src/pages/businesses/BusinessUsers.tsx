import type { User } from '@medlocker/core';
import { useAtom } from 'jotai';
import { messageOf, rpc } from '../../api/client.ts';
import { useDebounced, usePagedQuery } from '../../api/queries.ts';
import { businessUsersSearchAtom } from '../../state/businesses.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { Link } from '../../ui/Link.tsx';
import { SearchField } from '../../ui/SearchField.tsx';
import { type VirtualColumn, VirtualList } from '../../ui/VirtualList.tsx';
import { useBusiness } from './BusinessLayout.tsx';

const searchDebounceMs = 500;

/** SPEC §2 `/businesses/{businessId}/users`: people with a Business role on it, searchable. */
export function BusinessUsers() {
  const { business } = useBusiness();
  const [search, setSearch] = useAtom(businessUsersSearchAtom);
  const filterText = useDebounced(search.trim(), searchDebounceMs);
  const base = `/businesses/${encodeURIComponent(business.id)}`;
  const list = usePagedQuery(
    async (nextToken, signal) => {
      const page = await rpc(
        'users',
        'getUsersByRole',
        { roleName: 'Business', roleResource: business.id, filterText: filterText || undefined, nextToken },
        { signal },
      );
      return { items: page.users, nextToken: page.nextToken };
    },
    [business.id, filterText],
  );

  const columns: VirtualColumn<User>[] = [
    {
      key: 'name',
      header: 'Name',
      width: 'minmax(10rem, 1fr)',
      render: (u) => <Link href={`${base}/users/${encodeURIComponent(u.id)}`}>{u.name || u.email}</Link>,
    },
    {
      key: 'email',
      header: 'Email',
      width: 'minmax(12rem, 1.4fr)',
      render: (u) => <span className="cell-email">{u.email}</span>,
    },
    {
      key: 'access',
      header: 'Access levels',
      width: '10rem',
      render: (u) => (u.accessLevels.length > 0 ? u.accessLevels.join(', ') : '—'),
    },
  ];

  return (
    <>
      <div className="section-head">
        <h2 className="section-title">Users</h2>
        <div className="page__actions">
          <Button onPress={list.reload}>Reload</Button>
          {!business.archived && (
            <Link href={`${base}/users/add`} variant="primary-button">
              Add
            </Link>
          )}
        </div>
      </div>
      <div className="toolbar">
        <SearchField
          label="Search users"
          placeholder="Name or email"
          value={search}
          onChange={setSearch}
          className="toolbar__search"
        />
      </div>
      {list.error ? (
        <Banner tone="error" action={<Button onPress={list.reload}>Try again</Button>}>
          {messageOf(list.error)}
        </Banner>
      ) : (
        <VirtualList
          label="Business users"
          columns={columns}
          items={list.items}
          rowKey={(u) => u.id}
          hasMore={list.hasMore}
          isLoading={list.isLoading}
          onLoadMore={list.loadMore}
          emptyText="No users found."
        />
      )}
    </>
  );
}
