import type { ReactNode } from 'react';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { Form, FormActions } from '../../ui/Form.tsx';
import { Link } from '../../ui/Link.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { useSubmit } from '../../ui/use-submit.ts';

/** "Check your email": what was sent, and the way back to log in. */
export function EmailSent({ children }: { children: ReactNode }) {
  return (
    <>
      <h1 className="card__title">Check your email</h1>
      <Banner tone="success">{children}</Banner>
      <BackToLogIn />
    </>
  );
}

export function BackToLogIn() {
  return (
    <p className="auth__links">
      <Link href="/auth/login">Back to log in</Link>
    </p>
  );
}

/**
 * The form of a page that emails a link (register, reset): the email address first, the page's other
 * fields, then its button; `send` runs on submit, the server's messages land beside the fields.
 */
export function EmailForm({
  email,
  onEmail,
  send,
  submitLabel,
  isDisabled,
  children,
}: {
  email: string;
  onEmail: (email: string) => void;
  send: () => Promise<void>;
  submitLabel: string;
  isDisabled?: boolean;
  children?: ReactNode;
}) {
  const { fieldErrors, error, pending, onSubmit } = useSubmit();
  return (
    <Form guardUnsaved={false} error={error} validationErrors={fieldErrors} onSubmit={onSubmit(send)}>
      <TextField
        label="Email address"
        name="email"
        type="email"
        autoComplete="email"
        value={email}
        onChange={onEmail}
        isRequired
        autoFocus
      />
      {children}
      <FormActions>
        <Button type="submit" variant="primary" isPending={pending} isDisabled={isDisabled}>
          {submitLabel}
        </Button>
      </FormActions>
    </Form>
  );
}
