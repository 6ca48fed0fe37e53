import { useCallback, useMemo, useState } from 'react';

/**
 * Which rows of a list are chosen, by id: a row's checkbox toggles one, "select all on this page" sets
 * those shown. Kept in the page (not the URL): leaving the list forgets the choice. Any list whose rows
 * act together (print their labels…) uses this one hook.
 */
export function useRowSelection() {
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const set = useCallback((ids: readonly string[], on: boolean) => {
    setSelected((before) => {
      const after = new Set(before);
      for (const id of ids) {
        if (on) after.add(id);
        else after.delete(id);
      }
      return after;
    });
  }, []);
  const clear = useCallback(() => setSelected(new Set()), []);
  return useMemo(
    () => ({
      /** The chosen ids, in the order they were chosen. */
      ids: [...selected],
      size: selected.size,
      has: (id: string) => selected.has(id),
      /** Chooses (or un-chooses) these rows. */
      set,
      /** Whether every one of these rows is chosen (none given: false). */
      hasAll: (ids: readonly string[]) => ids.length > 0 && ids.every((id) => selected.has(id)),
      clear,
    }),
    [selected, set, clear],
  );
}

export type RowSelection = ReturnType<typeof useRowSelection>;
