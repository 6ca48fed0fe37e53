import type { AreaName, RpcArgs } from '@medlocker/core';
import {
  keepPreviousData,
  QueryClient,
  type QueryKey,
  useInfiniteQuery,
  useQuery as useTanstackQuery,
} from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { type MethodOf, type RpcInput, type RpcOutput, rpc } from './client.ts';

/**
 * Server state lives in TanStack Query (one cache for the console: {@link queryClient}); jotai keeps
 * UI state. Every query is keyed `[area, method, ...its inputs]`, so a live push invalidates what it
 * changed by area and method (state/invalidate.ts), and two components asking for the same data share
 * one request. A change of key keeps the previous answer on screen until the new one arrives, so
 * lists and pickers do not flash empty, and an answer that comes back late for an older key is dropped.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // The console reports a failure at once (with Try again) rather than retrying behind a spinner.
      retry: false,
      refetchOnWindowFocus: false,
      placeholderData: keepPreviousData,
    },
  },
});

/**
 * Reads are not aborted when their component goes (React's strict mode mounts twice; a list's key
 * changes as one types): the answer is kept under its own key instead. An aborted first read of a
 * fresh page load could leave the query pending with nothing asking again.
 */
const neverAborted = new AbortController().signal;

export type Query<T> = {
  data: T | undefined;
  error: unknown;
  /** A request is in flight (the first one, or a reload with the old data still shown). */
  isLoading: boolean;
  /** Asks again (Reload buttons, after a change). */
  reload: () => void;
};

export type QueryOptions = {
  /**
   * The answer is dropped as soon as no page shows it, so a page opened again reads anew before it
   * shows anything: for a form, whose fields start from the answer it first gets (one started from an
   * answer cached before its last save showed the values from before it).
   */
  fresh?: boolean;
};

/** One server read, cached under `key` (`[area, method, ...inputs]`); loads when the key changes. */
export function useQuery<T>(
  load: (signal: AbortSignal) => Promise<T>,
  key: QueryKey,
  options: QueryOptions = {},
): Query<T> {
  const query = useTanstackQuery({
    queryKey: key,
    queryFn: () => load(neverAborted),
    ...(options.fresh ? { gcTime: 0 } : {}),
  });
  const { refetch } = query;
  const reload = useCallback(() => void refetch(), [refetch]);
  return { data: query.data, error: query.error ?? undefined, isLoading: query.isFetching, reload };
}

/**
 * One rpc read as a query, cached under `key` (`[area, method, ...the values the input is made
 * of]`), the method called with `input` (`useRpcQuery(['machines', 'getMachine', id], { id })`).
 */
export function useRpcQuery<A extends AreaName, M extends MethodOf<A>>(
  key: readonly [A, M, ...unknown[]],
  input: RpcInput<A, M>,
  options?: QueryOptions,
): Query<RpcOutput<A, M>> {
  const [area, method] = key;
  return useQuery((signal) => rpc(area, method, ...([input, { signal }] as RpcArgs<A, M>)), key, options);
}

export type Page<T> = { items: T[]; nextToken: string | null };

export type PagedQuery<T> = {
  items: T[];
  hasMore: boolean;
  isLoading: boolean;
  error: unknown;
  loadMore: () => void;
  reload: () => void;
};

/**
 * A list paged by `nextToken` (SPEC §7), cached under `key` (`[area, method, ...filters]`): the first
 * page loads when the key changes (a new search starts over), further pages when `loadMore` is called,
 * e.g. by a virtual list near its end.
 */
export function usePagedQuery<T>(
  loadPage: (nextToken: string | null, signal: AbortSignal) => Promise<Page<T>>,
  key: QueryKey,
): PagedQuery<T> {
  const query = useInfiniteQuery({
    queryKey: [...key, 'pages'],
    queryFn: ({ pageParam }) => loadPage(pageParam, neverAborted),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextToken,
  });
  const { refetch, fetchNextPage, hasNextPage, isFetching } = query;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetching) void fetchNextPage();
  }, [hasNextPage, isFetching, fetchNextPage]);
  const reload = useCallback(() => void refetch(), [refetch]);
  const items = useMemo(() => query.data?.pages.flatMap((page) => page.items) ?? [], [query.data]);
  return {
    items,
    hasMore: query.error ? false : hasNextPage,
    isLoading: isFetching,
    error: query.error ?? undefined,
    loadMore,
    reload,
  };
}

/** A value that follows `value` once it has stopped changing for `ms` (SPEC §9: search waits 500 ms). */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
