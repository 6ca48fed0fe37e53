import { useState } from 'react';
import { useLocation } from 'react-router';
import { rpc } from '../../api/client.ts';
import { Banner } from '../../ui/Banner.tsx';
import { usePageTitle } from '../../ui/Page.tsx';
import { BackToLogIn, EmailForm, EmailSent } from './EmailSent.tsx';

type ResetBeginState = { email?: string; forced?: boolean } | null;

/** SPEC §2/§4: request a reset link (also where a ForceReset login lands, with the username filled). */
export function ResetBegin() {
  usePageTitle('Reset your password');
  const state = useLocation().state as ResetBeginState;
  const [email, setEmail] = useState(state?.email ?? '');
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
      <EmailForm
        email={email}
        onEmail={setEmail}
        send={async () => {
          await rpc('auth', 'beginResetPassword', { email, frontEnd: 'support' });
          setSentTo(email.trim());
        }}
        submitLabel="Send reset link"
      />
      <BackToLogIn />
    </>
  );
}
