import { createContext, useContext } from 'react';

/**
 * Tells the enclosing Form that the user changed something. Typing reaches the form as input events,
 * but a pick made in a popover (a Select's or ComboBox's list, a colour area, a chosen file) happens
 * outside the form's DOM and fires none: those widgets call this instead, so a Select-only change
 * still counts as unsaved. Outside a Form it does nothing.
 */
export const FormEditedContext = createContext<() => void>(() => {});

/** The enclosing Form's "the user changed something" callback (a no-op outside a Form). */
export const useFormEdited = (): (() => void) => useContext(FormEditedContext);

/** Wraps a change handler so that calling it also marks the enclosing Form as edited. */
export function useEditedHandler<A extends unknown[]>(
  handler: ((...args: A) => void) | undefined,
): ((...args: A) => void) | undefined {
  const edited = useFormEdited();
  if (!handler) return handler;
  return (...args: A) => {
    edited();
    handler(...args);
  };
}
