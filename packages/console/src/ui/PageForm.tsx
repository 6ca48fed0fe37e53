import { type ReactNode, useState } from 'react';
import { errorsOf } from '../api/client.ts';
import { Button } from './Button.tsx';
import { Form, FormActions } from './Form.tsx';
import { t } from './i18n/index.ts';
import { Link } from './Link.tsx';

/** What a page's form shows while it saves: the server's messages and whether it is waiting. */
export type SaveState = ReturnType<typeof useSaveState>;

/**
 * A page's form while it saves: `start()` clears the last messages and shows the button busy;
 * `fail(error)` puts the server's messages beside the fields they name (with `prefix`, e.g.
 * 'templates.', taken off), or one above the form when none names a field, and ends the wait.
 */
export function useSaveState(prefix = '') {
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);
  return {
    fieldErrors,
    error,
    pending,
    setFieldErrors,
    setError,
    setPending,
    start() {
      setError(undefined);
      setFieldErrors({});
      setPending(true);
    },
    fail(e: unknown) {
      setPending(false);
      const { fields, form } = errorsOf(e, prefix);
      setFieldErrors(fields);
      setError(form);
    },
  };
}

export type PageFormProps = {
  state: Pick<SaveState, 'fieldErrors' | 'error' | 'pending'>;
  /** Runs on submit (the browser's own submit is held back). */
  save: () => void | Promise<void>;
  /** The submit button's words. */
  submitLabel?: string;
  /** Where Cancel goes; no Cancel without it. */
  cancelHref?: string;
  /** Read-only (an archived record): the submit button is off. */
  isDisabled?: boolean;
  /** Leave out the buttons (a read-only form). */
  readOnly?: boolean;
  /** Room for long fields (templates). */
  wide?: boolean;
  children: ReactNode;
};

/**
 * A form on its own page (or settings tab): the fields with the server's messages beside them, then
 * Cancel and the submit button.
 */
export function PageForm({
  state,
  save,
  submitLabel = t('ui.save'),
  cancelHref,
  isDisabled,
  readOnly,
  wide,
  children,
}: PageFormProps) {
  return (
    <Form
      className={wide ? 'form--page form--wide' : 'form--page'}
      error={state.error}
      validationErrors={state.fieldErrors}
      submit={save}
    >
      {children}
      {!readOnly && (
        <FormActions>
          {cancelHref && (
            <Link href={cancelHref} variant="button">
              {t('ui.cancel')}
            </Link>
          )}
          <Button type="submit" variant="primary" isPending={state.pending} isDisabled={isDisabled}>
            {submitLabel}
          </Button>
        </FormActions>
      )}
    </Form>
  );
}
