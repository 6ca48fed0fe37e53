import { type DependencyList, useCallback, useEffect, useRef, useState } from 'react';

export type Query<T> = {
  data: T | undefined;
  error: unknown;
  isLoading: boolean;
  /** Asks again (Reload buttons, after a change). */
  reload: () => void;
};

/**
 * Runs an RPC call when the component mounts and whenever `deps` change; older answers that come
 * back late are dropped, so a fast typist never sees the results of an earlier search.
 */
export function useQuery<T>(load: (signal: AbortSignal) => Promise<T>, deps: DependencyList): Query<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<unknown>();
  const [isLoading, setLoading] = useState(true);
  const [generation, setGeneration] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller's deps decide when to load
  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    setError(undefined);
    load(controller.signal).then(
      (value) => {
        if (controller.signal.aborted) return;
        setData(value);
        setLoading(false);
      },
      (e) => {
        if (controller.signal.aborted) return;
        setError(e);
        setLoading(false);
      },
    );
    return () => controller.abort();
  }, [...deps, generation]);

  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return { data, error, isLoading, reload };
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
 * A list paged by `nextToken` (SPEC §7): the first page loads when `deps` change (a new search
 * starts over), further pages when `loadMore` is called, e.g. by a virtual list near its end.
 */
export function usePagedQuery<T>(
  loadPage: (nextToken: string | null, signal: AbortSignal) => Promise<Page<T>>,
  deps: DependencyList,
): PagedQuery<T> {
  const [items, setItems] = useState<T[]>([]);
  const [nextToken, setNextToken] = useState<string | null>(null);
  const [hasMore, setHasMore] = useState(false);
  const [isLoading, setLoading] = useState(true);
  const [error, setError] = useState<unknown>();
  const [generation, setGeneration] = useState(0);
  const controllerRef = useRef<AbortController | null>(null);
  const loadRef = useRef(loadPage);
  loadRef.current = loadPage;

  const fetchPage = useCallback((token: string | null, replace: boolean) => {
    controllerRef.current?.abort();
    const controller = new AbortController();
    controllerRef.current = controller;
    setLoading(true);
    setError(undefined);
    loadRef.current(token, controller.signal).then(
      (page) => {
        if (controller.signal.aborted) return;
        setItems((before) => (replace ? page.items : [...before, ...page.items]));
        setNextToken(page.nextToken);
        setHasMore(page.nextToken !== null);
        setLoading(false);
      },
      (e) => {
        if (controller.signal.aborted) return;
        setError(e);
        setHasMore(false);
        setLoading(false);
      },
    );
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller's deps decide when to start over
  useEffect(() => {
    // The old items stay until the new first page replaces them: lists and pickers do not flash
    // empty, and a highlighted option does not vanish under the keyboard.
    setNextToken(null);
    fetchPage(null, true);
    return () => controllerRef.current?.abort();
  }, [...deps, generation]);

  const loadMore = useCallback(() => {
    if (nextToken !== null && !isLoading) fetchPage(nextToken, false);
  }, [nextToken, isLoading, fetchPage]);

  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return { items, hasMore, isLoading, error, loadMore, reload };
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
