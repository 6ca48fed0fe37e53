import type { User } from '@medlocker/core';
import { useAtom } from 'jotai';
import { messageOf, rpc } from '../../api/client.ts';
import { useDebounced, usePagedQuery } from '../../api/queries.ts';
import { groupUsersSearchAtom } from '../../state/groups.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { Link } from '../../ui/Link.tsx';
import { SearchField } from '../../ui/SearchField.tsx';
import { type VirtualColumn, VirtualList } from '../../ui/VirtualList.tsx';
import { useGroup } from './GroupLayout.tsx';

const searchDebounceMs = 500;

/** SPEC §2 `/groups/{groupId}/users`: Name, Email, Access levels; prefix search (SPEC §5). */
export function GroupUsers() {
  const { group } = useGroup();
  const [search, setSearch] = useAtom(groupUsersSearchAtom);
  const filterText = useDebounced(search.trim(), searchDebounceMs);
  const base = `/groups/${encodeURIComponent(group.id)}/users`;
  const list = usePagedQuery(
    async (nextToken, signal) => {
      const page = await rpc(
        'users',
        'getUsersByRole',
        { roleName: 'Group', roleResource: group.id, filterText: filterText || undefined, nextToken },
        { signal },
      );
      return { items: page.users, nextToken: page.nextToken };
    },
    [group.id, filterText],
  );

  const columns: VirtualColumn<User>[] = [
    {
      key: 'name',
      header: 'Name',
      width: 'minmax(10rem, 1fr)',
      render: (u) => <Link href={`${base}/${encodeURIComponent(u.id)}`}>{u.name || u.email}</Link>,
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
          {!group.archived && (
            <Link href={`${base}/add`} variant="primary-button">
              Add
            </Link>
          )}
        </div>
      </div>
      <div className="toolbar">
        <SearchField
          label="Search users"
          placeholder="Start of email, first name, surname or full name"
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
          label="Group users"
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
