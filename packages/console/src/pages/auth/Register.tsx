import { useState } from 'react';
import { rpc } from '../../api/client.ts';
import { useConsoleConfig } from '../../state/session.ts';
import { Banner } from '../../ui/Banner.tsx';
import { usePageTitle } from '../../ui/Page.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { BackToLogIn, EmailForm, EmailSent } from './EmailSent.tsx';

/** SPEC §2 register: email and names; submitting shows an email-sent message. */
export function Register() {
  usePageTitle('Register');
  const config = useConsoleConfig();
  const [email, setEmail] = useState('');
  const [givenName, setGivenName] = useState('');
  const [familyName, setFamilyName] = useState('');
  const [sentTo, setSentTo] = useState<string>();

  if (sentTo) {
    return (
      <EmailSent>
        We have sent an email to <strong>{sentTo}</strong>. Follow the link in it to set your password.
      </EmailSent>
    );
  }

  return (
    <>
      <h1 className="card__title">Register</h1>
      {!config.allowRegistration && (
        <Banner tone="info">Registration is not open. Please ask {config.productName} Support for an account.</Banner>
      )}
      <EmailForm
        email={email}
        onEmail={setEmail}
        send={async () => {
          await rpc('auth', 'register', { email, givenName, familyName, frontEnd: 'support' });
          setSentTo(email.trim());
        }}
        submitLabel="Register"
        isDisabled={!config.allowRegistration}
      >
        <TextField
          label="First name"
          name="givenName"
          autoComplete="given-name"
          value={givenName}
          onChange={setGivenName}
          isRequired
        />
        <TextField
          label="Surname"
          name="familyName"
          autoComplete="family-name"
          value={familyName}
          onChange={setFamilyName}
          isRequired
        />
      </EmailForm>
      <BackToLogIn />
    </>
  );
}
