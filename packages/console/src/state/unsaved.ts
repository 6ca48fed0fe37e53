/**
 * Forms with changes not yet saved (ui/Form marks itself on the first edit and clears on submit or
 * when it goes away). The shell's UnsavedChangesGuard asks before an in-app link or a reload/close
 * would throw them away.
 */
const dirty = new Set<symbol>();

export function setUnsaved(form: symbol, isDirty: boolean): void {
  if (isDirty) dirty.add(form);
  else dirty.delete(form);
}

export function hasUnsavedChanges(): boolean {
  return dirty.size > 0;
}

/** The user chose to leave: the edits are dropped. */
export function discardUnsaved(): void {
  dirty.clear();
}
