import { useAtom, type WritableAtom } from 'jotai';
import { useCallback, useEffect, useRef } from 'react';
import { type NavigateFunction, useLocation, useNavigate, useSearchParams } from 'react-router';

/** How a filter's value is written in the address; `format` gives null for the default (left out). */
export type UrlCodec<T> = { parse: (text: string) => T; format: (value: T) => string | null };

export const textCodec: UrlCodec<string> = { parse: (t) => t, format: (v) => (v === '' ? null : v) };

/** A switch: `?param=true`, or `false` when the default is on; the default is left out. */
export const flagCodec = (initial = false): UrlCodec<boolean> => ({
  parse: (t) => t === 'true',
  format: (v) => (v === initial ? null : String(v)),
});

/** One of `choices` (null: none chosen, left out); anything else in the address counts as none. */
export const choiceCodec = <C extends string>(choices: readonly C[]): UrlCodec<C | null> => ({
  parse: (t) => ((choices as readonly string[]).includes(t) ? (t as C) : null),
  format: (v) => v,
});

/** Filter changes asked for in this task, by parameter: written to the address together. */
let batch: Map<string, string | null> | null = null;

/**
 * Sets one query parameter (null: removes it), replacing the history entry. Several filters changing
 * at once (a page restoring its remembered filters) each ask in the same task; reading the address
 * only when the task is done keeps one change from undoing another.
 */
function writeParam(navigate: NavigateFunction, param: string, text: string | null) {
  if (!batch) {
    const changes = new Map<string, string | null>();
    batch = changes;
    queueMicrotask(() => {
      batch = null;
      const after = new URLSearchParams(location.search);
      for (const [name, value] of changes) {
        if (value === null) after.delete(name);
        else after.set(name, value);
      }
      const search = after.toString();
      navigate(
        { pathname: location.pathname, search: search ? `?${search}` : '', hash: location.hash },
        { replace: true, preventScrollReset: true },
      );
    });
  }
  batch.set(param, text);
}

/**
 * A list filter kept in the URL (`?q=…`, `?archived=true`…), so a reload, Back and Forward and a shared
 * link open the same results, and remembered in its session or local storage atom (SPEC §2: coming
 * back to the list from the menu finds the filter still there; the address then shows it again).
 * A value in the address wins and becomes the remembered one; a change updates both, replacing the
 * history entry rather than adding one per keystroke or click.
 */
export function useUrlState<T>(
  param: string,
  atom: WritableAtom<T, [T], void>,
  codec: UrlCodec<T>,
): [T, (value: T) => void] {
  const [kept, setKept] = useAtom(atom);
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const fromUrl = params.get(param);
  const { key } = useLocation();
  // Set while this hook's own change of address is on its way: the router commits a navigation later
  // than the atom changes (in a transition), and the renders between must not take the old address
  // for a new one. Any navigation committed since (this one, or the user leaving) ends it.
  const asked = useRef<{ key: string } | null>(null);
  if (asked.current && asked.current.key !== key) asked.current = null;
  const keyNow = useRef(key);
  keyNow.current = key;
  const value = asked.current || fromUrl === null ? kept : codec.parse(fromUrl);

  const write = useCallback(
    (text: string | null) => {
      asked.current = { key: keyNow.current };
      writeParam(navigate, param, text);
    },
    [param, navigate],
  );

  useEffect(() => {
    if (asked.current) return;
    if (fromUrl === null) {
      // Opened without it (the menu, a plain link): show the remembered filter in the address too.
      const text = codec.format(kept);
      if (text !== null) write(text);
      return;
    }
    // A new address (a link, Back, Forward): it becomes the remembered value.
    const parsed = codec.parse(fromUrl);
    if (codec.format(parsed) !== codec.format(kept)) setKept(parsed);
  }, [fromUrl, kept, codec, setKept, write]);

  const set = useCallback(
    (next: T) => {
      setKept(next);
      write(codec.format(next));
    },
    [codec, setKept, write],
  );
  return [value, set];
}

/** A list's search text kept in the URL (`?q=…`) and in its storage atom; see {@link useUrlState}. */
export function useUrlSearch(
  atom: WritableAtom<string, [string], void>,
  param = 'q',
): [string, (value: string) => void] {
  return useUrlState(param, atom, textCodec);
}

/** A switch that is off unless the address says `?param=true`. */
export const offByDefault = flagCodec(false);
/** A switch that is on unless the address says `?param=false`. */
export const onByDefault = flagCodec(true);
