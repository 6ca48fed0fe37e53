import { useState } from 'react';
import { useLocation } from 'react-router';
import { rpc } from '../../api/client.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { Form, FormActions } from '../../ui/Form.tsx';
import { usePageTitle } from '../../ui/Page.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { useSubmit } from '../../ui/use-submit.ts';
import { BackToLogIn, EmailSent } from './EmailSent.tsx';

type ResetBeginState = { email?: string; forced?: boolean } | null;

/** SPEC §2/§4: request a reset link (also where a ForceReset login lands, with the username filled). */
export function ResetBegin() {
  usePageTitle('Reset your password');
  const state = useLocation().state as ResetBeginState;
  const [email, setEmail] = useState(state?.email ?? '');
  const { fieldErrors, error, pending, onSubmit } = useSubmit();
  const [sentTo, setSentTo] = useState<string>();

  if (sentTo) {
    return (
      <EmailSent>
        If there is an account for <strong>{sentTo}</strong>, we have sent it an email with a link to reset the
        password. The link works once, for one hour.
      </EmailSent>
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
        guardUnsaved={false}
        error={error}
        validationErrors={fieldErrors}
        onSubmit={onSubmit(async () => {
          await rpc('auth', 'beginResetPassword', { email, frontEnd: 'support' });
          setSentTo(email.trim());
        })}
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
      <BackToLogIn />
    </>
  );
}
