import { useState } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { ApiError, messageOf, rpc } from '../../api/client.ts';
import { useFlashNotice } from '../../shell/flash.ts';
import {
  rememberSessionHint,
  sessionStarted,
  useConsoleConfig,
  useSessionNotice,
  useSessionState,
} from '../../state/session.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { Form, FormActions } from '../../ui/Form.tsx';
import { Link } from '../../ui/Link.tsx';
import { usePageTitle } from '../../ui/Page.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { returnPathOf } from './return-path.ts';

/** SPEC §8 login messages. */
const invalidCredentialsMessage = 'Invalid username or password';
const tooManyAttemptsMessage =
  'Your account has been temporarily disabled due to too many incorrect login attempts. Please try again in 5 minutes.';

/** Why a sign-in through an identity provider came back refused (`/auth/login?sso=…`, see api sso/flow.ts). */
export const ssoFailureMessages: Record<string, string> = {
  expired: 'This sign-in has expired or was already used. Please sign in again.',
  browser: 'This sign-in was started in another browser. Please sign in again here.',
  provider: 'Your identity provider could not be reached. Please try again later or contact Support.',
  rejected: 'Your identity provider did not confirm the sign-in. Please try again or contact Support.',
  cancelled: 'The sign-in was cancelled at your identity provider.',
  unverified: 'Your identity provider did not confirm your email address, so you cannot be signed in.',
  unknown:
    'There is no account for this email address with your identity provider. Please ask your manager or Support to add you.',
};

export type AuthPageState = { email?: string; notice?: string } | null;

/**
 * The two steps of signing in and what each answer leads to: the username (an email) asks whether an
 * identity provider signs this user in (then the browser leaves for it), else the password step;
 * the password signs in (on to `from`), or is refused (SPEC §8 messages), or must be reset first.
 */
function useSignIn(from: string, initialUsername: string, initialError: string | undefined) {
  const navigate = useNavigate();
  const [step, setStep] = useState<'username' | 'password'>('username');
  const [username, setUsername] = useState(initialUsername);
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | undefined>(initialError);
  const [pending, setPending] = useState(false);

  const fail = (e: unknown) => {
    if (e instanceof ApiError && e.details.some((d) => d.path)) setFieldErrors(e.fieldErrors);
    else setError(messageOf(e));
    setPending(false);
  };

  const submitUsername = async () => {
    const returnUrl = new URL(from, window.location.origin).toString();
    const { authUrl } = await rpc('auth', 'getIdentityProviderAuthUrl', { username, returnUrl });
    if (authUrl) {
      // The identity provider sends the browser back with a session cookie: look for it then.
      rememberSessionHint(true);
      window.location.assign(authUrl);
      return; // stays pending while the browser leaves
    }
    setStep('password');
    setPending(false);
  };

  const submitPassword = async () => {
    const answer = await rpc('auth', 'login', { username, password });
    if (answer.ok && answer.result) {
      sessionStarted(answer.result);
      navigate(from, { replace: true });
      return;
    }
    setPending(false);
    if (answer.reason === 'ForceReset') {
      navigate('/auth/reset/begin', { state: { email: username, forced: true } });
    } else if (answer.reason === 'TooManyAttempts') {
      setError(answer.message ?? tooManyAttemptsMessage);
    } else {
      setError(invalidCredentialsMessage);
      setPassword('');
    }
  };

  return {
    step,
    username,
    setUsername,
    password,
    setPassword,
    fieldErrors,
    error,
    pending,
    submit() {
      setError(undefined);
      setFieldErrors({});
      setPending(true);
      (step === 'username' ? submitUsername() : submitPassword()).catch(fail);
    },
    /** Back to the username step. */
    change() {
      setStep('username');
      setPassword('');
      setError(undefined);
    },
  };
}

/**
 * SPEC §2/§4 login, in two steps: the username (an email), then the password — or, when the user
 * signs in through an identity provider, a redirect there. ForceReset goes to reset-begin with the
 * username filled in.
 */
export function Login() {
  usePageTitle('Log in');
  const location = useLocation();
  const config = useConsoleConfig();
  const session = useSessionState();
  const sessionNotice = useSessionNotice();
  const flashNotice = useFlashNotice();
  const from = returnPathOf(location.search);
  const ssoFailure = new URLSearchParams(location.search).get('sso');
  const signIn = useSignIn(
    from,
    (location.state as AuthPageState)?.email ?? '',
    ssoFailure ? (ssoFailureMessages[ssoFailure] ?? ssoFailureMessages.rejected) : undefined,
  );

  // Already signed in (e.g. back button), as support or pharmacy staff: straight on.
  const scopes = session.status === 'active' ? session.session.scopes : [];
  const signedIn = scopes.includes('support') || scopes.includes('pharmacy');
  if (signedIn && !signIn.pending) return <Navigate to={from} replace />;

  const notice = sessionNotice ?? flashNotice;

  return (
    <>
      <h1 className="card__title">Log in</h1>
      {notice && <Banner tone={sessionNotice ? 'warning' : 'success'}>{notice}</Banner>}
      <Form guardUnsaved={false} error={signIn.error} validationErrors={signIn.fieldErrors} submit={signIn.submit}>
        {signIn.step === 'username' ? (
          <TextField
            label="Email address"
            name="username"
            type="email"
            autoComplete="username"
            value={signIn.username}
            onChange={signIn.setUsername}
            isRequired
            autoFocus
          />
        ) : (
          <PasswordStep
            username={signIn.username}
            password={signIn.password}
            onPassword={signIn.setPassword}
            onChange={signIn.change}
          />
        )}
        <FormActions>
          <Button type="submit" variant="primary" isPending={signIn.pending}>
            {signIn.step === 'username' ? 'Next' : 'Log in'}
          </Button>
        </FormActions>
      </Form>
      <nav className="auth__links" aria-label="Other sign-in options">
        <Link href="/auth/reset/begin" routerOptions={{ state: { email: signIn.username } }}>
          I forgot my password
        </Link>
        {config.allowRegistration && <Link href="/auth/register">Register</Link>}
      </nav>
    </>
  );
}

/** The password, under the username it is for (with Change to go back). */
function PasswordStep({
  username,
  password,
  onPassword,
  onChange,
}: {
  username: string;
  password: string;
  onPassword: (value: string) => void;
  onChange: () => void;
}) {
  return (
    <>
      <div className="login__username">
        <span className="field__label">Email address</span>
        <span className="login__username-value">{username}</span>
        <Button variant="quiet" onPress={onChange}>
          Change
        </Button>
      </div>
      {/* For password managers: the account the password belongs to. */}
      <input type="email" name="username" autoComplete="username" value={username} readOnly hidden />
      <TextField
        label="Password"
        name="password"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={onPassword}
        isRequired
        autoFocus
      />
    </>
  );
}
