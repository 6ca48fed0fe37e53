import { useAtom, type WritableAtom } from 'jotai';
import { useCallback, useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';

/**
 * A list's search text kept in the URL (`?q=…`, so a link or a reload opens the same results) and in
 * its session or local storage atom (SPEC §2: coming back to the list finds the search still there).
 * A `q` in the address wins and becomes the kept search; typing updates both, replacing the history
 * entry rather than adding one per keystroke.
 */
export function useUrlSearch(
  atom: WritableAtom<string, [string], void>,
  param = 'q',
): [string, (value: string) => void] {
  const [kept, setKept] = useAtom(atom);
  const [params, setParams] = useSearchParams();
  const fromUrl = params.get(param);
  const value = fromUrl ?? kept;
  // The URL's value last taken in: only a new one (a link, Back) replaces the kept search, not the
  // render between typing and the address catching up.
  const taken = useRef<string | null>(null);

  useEffect(() => {
    if (fromUrl === null || fromUrl === taken.current) return;
    taken.current = fromUrl;
    setKept(fromUrl);
  }, [fromUrl, setKept]);

  const set = useCallback(
    (next: string) => {
      taken.current = next === '' ? null : next;
      setKept(next);
      setParams(
        (before) => {
          const after = new URLSearchParams(before);
          if (next === '') after.delete(param);
          else after.set(param, next);
          return after;
        },
        { replace: true },
      );
    },
    [param, setKept, setParams],
  );
  return [value, set];
}
