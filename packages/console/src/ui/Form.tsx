import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Form as AriaForm, type FormProps as AriaFormProps } from 'react-aria-components';
import { setUnsaved } from '../state/unsaved.ts';
import { Banner } from './Banner.tsx';
import { FormEditedContext } from './form-edited.ts';

export type FormProps = AriaFormProps & {
  /** A message about the whole form (e.g. 'Invalid username or password'), shown above the fields. */
  error?: ReactNode;
  children: ReactNode;
  /**
   * Ask before leaving with unsaved edits (default). Off for forms whose input is not worth keeping
   * (signing in, a password reset).
   */
  guardUnsaved?: boolean;
  /**
   * Runs on submit with the form's data, the browser's own submit held back (instead of `onSubmit`,
   * for forms that only need their data or none).
   */
  submit?: (data: FormData) => unknown;
};

type Cleared = { from: FormProps['validationErrors']; names: ReadonlySet<string> };

/**
 * A form whose fields show the server's per-field messages: pass `validationErrors` (field name →
 * message, from ApiError.fieldErrors) and each field with that `name` shows its message beside it.
 * A field's message goes as soon as the user types in it (not on blur: a message vanishing on blur
 * moves the submit button from under the pointer mid-click).
 *
 * The first edit marks the form as holding unsaved changes (state/unsaved.ts) until it is submitted
 * or goes away; the shell then asks before a link, Back or a reload would lose them. Typing counts
 * through input events; picks made in popovers (Select, ComboBox, colour, file) through
 * `useFormEdited` (ui/form-edited.ts), as they fire no event inside the form.
 */
export function Form({
  error,
  children,
  className,
  validationErrors,
  guardUnsaved = true,
  onSubmit,
  submit,
  ...props
}: FormProps) {
  const id = useRef(Symbol('form')).current;
  useEffect(() => () => setUnsaved(id, false), [id]);
  const edited = () => {
    if (guardUnsaved) setUnsaved(id, true);
  };
  const [cleared, setCleared] = useState<Cleared>({ from: validationErrors, names: new Set() });
  const names = cleared.from === validationErrors ? cleared.names : new Set<string>();
  const shown = validationErrors
    ? Object.fromEntries(Object.entries(validationErrors).filter(([name]) => !names.has(name)))
    : undefined;

  return (
    <AriaForm
      validationBehavior="aria"
      {...props}
      validationErrors={shown}
      onSubmit={(event) => {
        setUnsaved(id, false);
        if (submit) {
          event.preventDefault();
          void submit(new FormData(event.currentTarget));
        }
        onSubmit?.(event);
      }}
      className={['form', className].filter(Boolean).join(' ')}
    >
      {error && <Banner tone="error">{error}</Banner>}
      {/* Catches typing in any field below (RAC's Form takes no input events). */}
      <div
        className="form__fields"
        onChange={edited}
        onInput={(event) => {
          edited();
          const name = (event.target as HTMLInputElement).name;
          if (name && validationErrors?.[name] !== undefined && !names.has(name)) {
            setCleared({ from: validationErrors, names: new Set(names).add(name) });
          }
        }}
      >
        <FormEditedContext.Provider value={edited}>{children}</FormEditedContext.Provider>
      </div>
    </AriaForm>
  );
}

/** The row of buttons at the end of a form. */
export function FormActions({ children }: { children: ReactNode }) {
  return <div className="form__actions">{children}</div>;
}
