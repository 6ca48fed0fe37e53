import type { User } from '@medlocker/core';
import { rpc } from '../../api/client.ts';
import { useDebounced, usePagedQuery } from '../../api/queries.ts';
import { useUrlSearch } from '../../state/url-filter.ts';
import { supportUsersSearchAtom } from '../../state/users.ts';
import { Button } from '../../ui/Button.tsx';
import { Link } from '../../ui/Link.tsx';
import { Page } from '../../ui/Page.tsx';
import { PagedList } from '../../ui/PagedList.tsx';
import { SearchField } from '../../ui/SearchField.tsx';
import type { VirtualColumn } from '../../ui/VirtualList.tsx';

/** SPEC §9: search waits until typing has paused this long. */
const searchDebounceMs = 500;

const columns: VirtualColumn<User>[] = [
  {
    key: 'name',
    header: 'Name',
    width: 'minmax(10rem, 1fr)',
    render: (u) => <Link href={`/users/${encodeURIComponent(u.id)}`}>{u.name}</Link>,
  },
  {
    key: 'email',
    header: 'Email',
    width: 'minmax(12rem, 1.4fr)',
    render: (u) => <span className="cell-email">{u.email}</span>,
  },
];

/** SPEC §2 `/users`: people holding the Support role, searchable, paged as the list scrolls. */
export function SupportUsers() {
  const [search, setSearch] = useUrlSearch(supportUsersSearchAtom);
  const filterText = useDebounced(search.trim(), searchDebounceMs);
  const list = usePagedQuery(
    async (nextToken, signal) => {
      const page = await rpc(
        'users',
        'getUsersByRole',
        { roleName: 'Support', filterText: filterText || undefined, nextToken },
        { signal },
      );
      return { items: page.users, nextToken: page.nextToken };
    },
    ['users', 'getUsersByRole', 'Support', null, filterText],
  );

  return (
    <Page
      title="Support Users"
      lead="People who can use this console."
      actions={
        <>
          <Button onPress={list.reload} isPending={list.isLoading && list.items.length > 0}>
            Reload
          </Button>
          <Link href="/users/add/support" variant="primary-button">
            Add
          </Link>
        </>
      }
    >
      <div className="toolbar">
        <SearchField
          label="Search"
          placeholder="Name or email"
          value={search}
          onChange={setSearch}
          className="toolbar__search"
        />
      </div>
      <PagedList query={list} label="Support users" columns={columns} emptyText="No users found." />
    </Page>
  );
}
