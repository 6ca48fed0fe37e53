import { useState } from 'react';
import { useLocation } from 'react-router';
import { messageOf, rpc } from '../../api/client.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { Page } from '../../ui/Page.tsx';

/**
 * `/cli?code=…`: approving a command-line sign-in. The terminal shows the same code; the
 * person compares and approves, and `medlocker login --browser` receives a session of their own.
 */
export function CliSignIn() {
  const location = useLocation();
  const code = new URLSearchParams(location.search).get('code') ?? '';
  const [state, setState] = useState<'ask' | 'pending' | 'done'>('ask');
  const [error, setError] = useState<string>();

  const approve = async () => {
    setState('pending');
    setError(undefined);
    try {
      await rpc('auth', 'approveCliSignIn', { userCode: code });
      setState('done');
    } catch (e) {
      setState('ask');
      setError(
        messageOf(e) === 'invalid code' ? 'This code is not valid any more. Run medlocker login again.' : messageOf(e),
      );
    }
  };

  return (
    <Page title="Sign In the Command Line" lead="The medlocker command line asks to act as you.">
      {state === 'done' ? (
        <Banner tone="success">The command line is signed in. You can close this page.</Banner>
      ) : (
        <>
          {error && <Banner tone="error">{error}</Banner>}
          <p>
            Check that your terminal shows this code: <strong className="code">{code || '(none)'}</strong>
          </p>
          <p>Approve only if you started the sign-in yourself, just now.</p>
          <Button variant="primary" onPress={() => void approve()} isPending={state === 'pending'} isDisabled={!code}>
            Approve
          </Button>
        </>
      )}
    </Page>
  );
}
