import { useState } from 'react';
import { useLocation } from 'react-router';
import { ApiError, messageOf, rpc } from '../../api/client.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { Form, FormActions } from '../../ui/Form.tsx';
import { Link } from '../../ui/Link.tsx';
import { usePageTitle } from '../../ui/Page.tsx';
import { TextField } from '../../ui/TextField.tsx';

type ResetBeginState = { email?: string; forced?: boolean } | null;

/** SPEC §2/§4: request a reset link (also where a ForceReset login lands, with the username filled). */
export function ResetBegin() {
  usePageTitle('Reset your password');
  const state = useLocation().state as ResetBeginState;
  const [email, setEmail] = useState(state?.email ?? '');
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);
  const [sentTo, setSentTo] = useState<string>();

  if (sentTo) {
    return (
      <>
        <h1 className="card__title">Check your email</h1>
        <Banner tone="success">
          If there is an account for <strong>{sentTo}</strong>, we have sent it an email with a link to reset the
          password. The link works once, for one hour.
        </Banner>
        <p className="auth__links">
          <Link href="/auth/login">Back to log in</Link>
        </p>
      </>
    );
  }

  return (
    <>
      <h1 className="card__title">Reset your password</h1>
      {state?.forced ? (
        <Banner tone="warning">You need to set a new password before you can log in.</Banner>
      ) : (
        <p>Enter your email address and we will send you a link to set a new password.</p>
      )}
      <Form
        error={error}
        validationErrors={fieldErrors}
        onSubmit={async (event) => {
          event.preventDefault();
          setError(undefined);
          setFieldErrors({});
          setPending(true);
          try {
            await rpc('auth', 'beginResetPassword', { email, frontEnd: 'support' });
            setSentTo(email.trim());
          } catch (e) {
            if (e instanceof ApiError && e.details.some((d) => d.path)) setFieldErrors(e.fieldErrors);
            else setError(messageOf(e));
          } finally {
            setPending(false);
          }
        }}
      >
        <TextField
          label="Email address"
          name="email"
          type="email"
          autoComplete="email"
          value={email}
          onChange={setEmail}
          isRequired
          autoFocus
        />
        <FormActions>
          <Button type="submit" variant="primary" isPending={pending}>
            Send reset link
          </Button>
        </FormActions>
      </Form>
      <p className="auth__links">
        <Link href="/auth/login">Back to log in</Link>
      </p>
    </>
  );
}
