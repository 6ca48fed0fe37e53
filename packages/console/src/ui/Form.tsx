import type { ReactNode } from 'react';
import { Form as AriaForm, type FormProps as AriaFormProps } from 'react-aria-components';
import { Banner } from './Banner.tsx';

export type FormProps = AriaFormProps & {
  /** A message about the whole form (e.g. 'Invalid username or password'), shown above the fields. */
  error?: ReactNode;
  children: ReactNode;
};

/**
 * A form whose fields show the server's per-field messages: pass `validationErrors` (field name →
 * message, from ApiError.fieldErrors) and each field with that `name` shows its message beside it.
 */
export function Form({ error, children, className, ...props }: FormProps) {
  return (
    <AriaForm validationBehavior="aria" {...props} className={['form', className].filter(Boolean).join(' ')}>
      {error && <Banner tone="error">{error}</Banner>}
      {children}
    </AriaForm>
  );
}

/** The row of buttons at the end of a form. */
export function FormActions({ children }: { children: ReactNode }) {
  return <div className="form__actions">{children}</div>;
}
