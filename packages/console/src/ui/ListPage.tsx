import { formatDateTime } from '@medlocker/core';
import type { QueryKey } from '@tanstack/react-query';
import type { WritableAtom } from 'jotai';
import { Fragment, type ReactNode } from 'react';
import { type Page as ListPageOf, useDebounced, usePagedQuery } from '../api/queries.ts';
import { type MethodRef, useAllowed } from '../state/access.ts';
import { useUrlSearch } from '../state/url-filter.ts';
import { Button } from './Button.tsx';
import { t } from './i18n/index.ts';
import { Link, type LinkProps } from './Link.tsx';
import { Page } from './Page.tsx';
import { PagedList } from './PagedList.tsx';
import { SearchField } from './SearchField.tsx';
import { Section, SectionHead } from './Section.tsx';
import type { VirtualColumn } from './VirtualList.tsx';

/** SPEC §9: a search waits until typing has paused this long. */
export const searchDebounceMs = 500;

/** A column; one whose cells act through a contract method (Remove…) is left out for who may not call it. */
export type ListColumn<T> = VirtualColumn<T> & { method?: MethodRef };

/** A list's Name column: each row's name, a link to its page. */
export function nameColumn<T extends { name: string }>(
  header: string,
  href: (row: T) => string,
  width = 'minmax(10rem, 1fr)',
): ListColumn<T> {
  return { key: 'name', header, width, render: (row) => <Link href={href(row)}>{row.name}</Link> };
}

/** A list's Email column: an address may break anywhere (`cell-email`); '—' where there is none. */
export function emailColumn<T extends { email: string }>(
  header: string,
  width = 'minmax(12rem, 1.4fr)',
): ListColumn<T> {
  return { key: 'email', header, width, render: (row) => <span className="cell-email">{row.email || '—'}</span> };
}

/** A list's time column (Queued, When): when each row was created, date and time. */
export function createdColumn<T extends { created: number }>(key: string, header: string): ListColumn<T> {
  return { key, header, width: '11rem', render: (row) => formatDateTime(row.created) };
}

/** A button or link beside the heading (Add, Import…); shown only to who may call `method`. */
export type ListAction = { key: string; method?: MethodRef; element: ReactNode };

/** A link beside the heading (Add, Import, Sign-ups…), shown only to who may call `method` when given. */
export function linkAction(
  label: string,
  href: string,
  method?: MethodRef,
  variant: LinkProps['variant'] = 'primary-button',
): ListAction {
  return {
    key: label,
    method,
    element: (
      <Link href={href} variant={variant}>
        {label}
      </Link>
    ),
  };
}

/** What the list shows: `load` gets the debounced search (undefined when blank) and the page cursor. */
export type ListQuery<T> = {
  /** `[area, method, ...inputs]` (api/queries.ts); the search text is added to it. */
  key: QueryKey;
  load: (search: string | undefined, nextToken: string | null) => Promise<ListPageOf<T>>;
};

export type ListPageProps<T extends { id: string }> = {
  title: string;
  /**
   * `page`: a top-level list (h1); `section`: under another page's frame (h2); both set the document
   * title. `part`: an h2 in a layout that titles the document itself (a group's tabs); `bare`: no
   * heading (a tab's list).
   */
  frame?: 'page' | 'section' | 'part' | 'bare';
  lead?: ReactNode;
  /** Above the tabs and toolbar: notices, cautions. */
  banner?: ReactNode;
  tabs?: ReactNode;
  /** A contains search kept in the URL (`?{param}=`, default q) and remembered in `atom`. */
  search?: { atom: WritableAtom<string, [string], void>; placeholder: string; label?: string; param?: string };
  /** The list's other filters, each kept in the URL by the page (state/url-filter.ts). */
  filters?: ReactNode;
  /** Offer 'Clear filters'; the function resets the page's own filters (the search is cleared here). */
  clearFilters?: () => void;
  /** Whether any of the page's own filters is set (enables Clear filters). */
  filtered?: boolean;
  query: ListQuery<T>;
  /** The rows to show from those loaded (e.g. live pushes laid on top). */
  items?: (loaded: T[]) => T[];
  /** The table's accessible name. */
  label: string;
  columns: ListColumn<T>[];
  /** Shown when nothing matches; SPEC's words where it gives them. */
  emptyText: string | ((search: string) => string);
  actions?: ListAction[];
  /** A Reload button first among the actions (default true). */
  reload?: boolean;
  /** Dialogs and the like. */
  children?: ReactNode;
};

/**
 * The console's one list page, so every list behaves alike: heading and actions (each shown only to who may call
 * its method), banner, tabs, the search (contains, one clear button, in the URL, debounced) and the
 * page's filters, then the list itself: paged by nextToken as it scrolls (the footer only when there
 * is more than one page), 'Loading…', the error with Try again, the empty text, and cards under
 * 576 px. Pages declare only columns, filters, the query and actions.
 */
export function ListPage<T extends { id: string }>(props: ListPageProps<T>) {
  return props.search ? <SearchedList {...props} search={props.search} /> : <List {...props} searchText="" />;
}

function SearchedList<T extends { id: string }>(
  props: ListPageProps<T> & { search: NonNullable<ListPageProps<T>['search']> },
) {
  const { atom, placeholder, label = t('ui.search'), param } = props.search;
  const [search, setSearch] = useUrlSearch(atom, param);
  const field = (
    <SearchField
      label={label}
      placeholder={placeholder}
      value={search}
      onChange={setSearch}
      className="toolbar__search"
    />
  );
  const clear = props.clearFilters;
  return (
    <List
      {...props}
      searchText={search}
      searchField={field}
      clearFilters={
        clear &&
        (() => {
          setSearch('');
          clear();
        })
      }
      filtered={props.filtered || search !== ''}
    />
  );
}

function List<T extends { id: string }>({
  title,
  frame = 'page',
  lead,
  banner,
  tabs,
  filters,
  clearFilters,
  filtered,
  query,
  items,
  label,
  columns,
  emptyText,
  actions = [],
  reload = true,
  children,
  searchText,
  searchField,
}: ListPageProps<T> & { searchText: string; searchField?: ReactNode }) {
  const search = useDebounced(searchText.trim(), searchDebounceMs);
  const list = usePagedQuery((nextToken) => query.load(search || undefined, nextToken), [...query.key, search]);
  const shownColumns = useAllowed(columns);
  const shownActions = useAllowed(actions);

  const buttons =
    reload || shownActions.length > 0 ? (
      <ListButtons reload={reload ? list : undefined} actions={shownActions} />
    ) : undefined;
  const toolbar =
    searchField || filters || clearFilters ? (
      <Toolbar searchField={searchField} filters={filters} clearFilters={clearFilters} filtered={filtered} />
    ) : null;
  const body = (
    <>
      {banner}
      {tabs}
      {toolbar}
      <PagedList
        query={list}
        items={items ? items(list.items) : list.items}
        label={label}
        columns={shownColumns}
        emptyText={typeof emptyText === 'function' ? emptyText(search) : emptyText}
      />
      {children}
    </>
  );

  if (frame === 'page')
    return (
      <Page title={title} lead={lead} actions={buttons}>
        {body}
      </Page>
    );
  if (frame === 'section')
    return (
      <Section title={title} lead={lead} actions={buttons}>
        {body}
      </Section>
    );
  if (frame === 'bare') return body;
  return (
    <>
      <SectionHead title={title} actions={buttons} />
      {body}
    </>
  );
}

/** Reload (busy while the list reloads with rows shown), then the page's own actions. */
function ListButtons({
  reload,
  actions,
}: {
  reload?: { reload: () => void; isLoading: boolean; items: unknown[] };
  actions: ListAction[];
}) {
  return (
    <>
      {reload && (
        <Button onPress={reload.reload} isPending={reload.isLoading && reload.items.length > 0}>
          {t('ui.reload')}
        </Button>
      )}
      {actions.map((a) => (
        <Fragment key={a.key}>{a.element}</Fragment>
      ))}
    </>
  );
}

/** The search, the page's filters and Clear filters. */
function Toolbar({
  searchField,
  filters,
  clearFilters,
  filtered,
}: {
  searchField?: ReactNode;
  filters?: ReactNode;
  clearFilters?: () => void;
  filtered?: boolean;
}) {
  return (
    <div className="toolbar">
      {searchField}
      {filters}
      {clearFilters && (
        <Button variant="quiet" onPress={clearFilters} isDisabled={!filtered}>
          {t('ui.clearFilters')}
        </Button>
      )}
    </div>
  );
}
