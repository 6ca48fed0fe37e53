import { useState } from 'react';
import { useLocation } from 'react-router';
import { messageOf, rpc } from '../../api/client.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { Page } from '../../ui/Page.tsx';
import { t } from './i18n/index.ts';

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
      setError(messageOf(e) === 'invalid code' ? t('cli.invalidCode') : messageOf(e));
    }
  };

  return (
    <Page title={t('cli.title')} lead={t('cli.lead')}>
      {state === 'done' ? (
        <Banner tone="success">{t('cli.done')}</Banner>
      ) : (
        <>
          {error && <Banner tone="error">{error}</Banner>}
          <p>
            {t('cli.checkCode')} <strong className="code">{code || t('cli.noCode')}</strong>
          </p>
          <p>{t('cli.approveOnlyIf')}</p>
          <Button variant="primary" onPress={() => void approve()} isPending={state === 'pending'} isDisabled={!code}>
            {t('cli.approve')}
          </Button>
        </>
      )}
    </Page>
  );
}
