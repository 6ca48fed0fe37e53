import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { ApiError, messageOf, rpc } from '../../api/client.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { Form, FormActions } from '../../ui/Form.tsx';
import { Link } from '../../ui/Link.tsx';
import { usePageTitle } from '../../ui/Page.tsx';
import { TextField } from '../../ui/TextField.tsx';

/** SPEC §5/§8 wording. */
const tooShortMessage = 'Please enter at least 12 characters';
const mismatchMessage = 'Passwords do not match';
const invalidLinkMessage = 'You have clicked on an expired or invalid link. Please try again.';
const passwordMinLength = 12;

/** The token from the fragment (`#token=…`): fragments never reach servers or logs. */
function tokenOf(hash: string): string {
  return new URLSearchParams(hash.replace(/^#/, '')).get('token') ?? '';
}

/** SPEC §5: at least 12 characters, and typed the same twice. */
function passwordProblems(password: string, confirmation: string): Record<string, string> {
  const problems: Record<string, string> = {};
  if (password.length < passwordMinLength) problems.password = tooShortMessage;
  if (password !== confirmation) problems.confirmation = mismatchMessage;
  return problems;
}

/** What a refused reset means: a message about the password, a link that no longer works, or else. */
function refusalOf(e: unknown): { fields?: Record<string, string>; linkInvalid?: true; error?: string } {
  if (e instanceof ApiError && e.details.some((d) => d.path === 'password')) return { fields: e.fieldErrors };
  if (e instanceof ApiError && e.status >= 400 && e.status < 500 && e.status !== 429) return { linkInvalid: true };
  if (e instanceof ApiError && e.code === 'UNEXPECTED_STATUS') return { error: 'An unknown error occurred' };
  return { error: messageOf(e) };
}

/** SPEC §2/§4: set a new password with the emailed link; success goes to login. */
export function Reset() {
  usePageTitle('Set a new password');
  const location = useLocation();
  const navigate = useNavigate();
  const [token] = useState(() => tokenOf(location.hash));
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string>();
  const [linkInvalid, setLinkInvalid] = useState(token === '');
  const [pending, setPending] = useState(false);

  if (linkInvalid) return <InvalidLink />;

  const submit = async () => {
    setError(undefined);
    const problems = passwordProblems(password, confirmation);
    setFieldErrors(problems);
    if (Object.keys(problems).length > 0) return;
    setPending(true);
    try {
      await rpc('auth', 'completeResetPassword', { password, token });
      navigate('/auth/login', {
        replace: true,
        state: { notice: 'Your password has been set. Please log in with your new password.' },
      });
    } catch (e) {
      setPending(false);
      const refusal = refusalOf(e);
      if (refusal.fields) setFieldErrors(refusal.fields);
      else if (refusal.linkInvalid) setLinkInvalid(true);
      else setError(refusal.error);
    }
  };

  return (
    <>
      <h1 className="card__title">Set a new password</h1>
      <Form guardUnsaved={false} error={error} validationErrors={fieldErrors} submit={submit}>
        <TextField
          label="New password"
          name="password"
          type="password"
          autoComplete="new-password"
          description={`At least ${passwordMinLength} characters.`}
          value={password}
          onChange={setPassword}
          isRequired
          autoFocus
        />
        <TextField
          label="Confirm new password"
          name="confirmation"
          type="password"
          autoComplete="new-password"
          value={confirmation}
          onChange={setConfirmation}
          isRequired
        />
        <FormActions>
          <Button type="submit" variant="primary" isPending={pending}>
            Set password
          </Button>
        </FormActions>
      </Form>
    </>
  );
}

/** The link was used, expired or never valid: a new one can be sent. */
function InvalidLink() {
  return (
    <>
      <h1 className="card__title">Set a new password</h1>
      <Banner tone="error">{invalidLinkMessage}</Banner>
      <p className="auth__links">
        <Link href="/auth/reset/begin">Send a new link</Link>
        <Link href="/auth/login">Back to log in</Link>
      </p>
    </>
  );
}
