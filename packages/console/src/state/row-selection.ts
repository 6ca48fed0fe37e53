import { type KeyboardEvent, type PointerEvent, useCallback, useMemo, useRef, useState } from 'react';

/**
 * Which rows of a list are chosen, by id: a row's checkbox toggles one, with Shift held every row from
 * the last one toggled to this one; "select all on this page" sets those shown, and a page may set the
 * ids the server says match its filters. Kept in the page (not the URL): leaving the list forgets the
 * choice. Any list whose rows act together (print their labels, bulk actions…) uses this one hook.
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
  // The row last toggled, and whether Shift was held as the next toggle began (pointer or key).
  const anchor = useRef<string | null>(null);
  const shift = useRef(false);
  const noteShift = useCallback((e: PointerEvent | KeyboardEvent) => {
    shift.current = e.shiftKey;
  }, []);
  const toggle = useCallback(
    (id: string, on: boolean, order: readonly string[]) => {
      const from = anchor.current === null ? -1 : order.indexOf(anchor.current);
      const to = order.indexOf(id);
      const range = shift.current && from >= 0 && to >= 0;
      shift.current = false;
      anchor.current = id;
      set(range ? order.slice(Math.min(from, to), Math.max(from, to) + 1) : [id], on);
    },
    [set],
  );
  return useMemo(
    () => ({
      /** The chosen ids, in the order they were chosen. */
      ids: [...selected],
      size: selected.size,
      has: (id: string) => selected.has(id),
      /** Chooses (or un-chooses) these rows. */
      set,
      /** A row's box: this row, or with Shift every row of `order` between the last toggled and this one. */
      toggle,
      /** Given a row box's pointer-down and key-down (capture), so `toggle` knows whether Shift was held. */
      noteShift,
      /** Whether every one of these rows is chosen (none given: false). */
      hasAll: (ids: readonly string[]) => ids.length > 0 && ids.every((id) => selected.has(id)),
      clear,
    }),
    [selected, set, clear, toggle, noteShift],
  );
}

export type RowSelection = ReturnType<typeof useRowSelection>;
