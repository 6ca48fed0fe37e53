import { useState } from 'react';
import { rpc } from '../api.ts';
import { t } from '../i18n/index.ts';
import { Page } from '../ui.tsx';

/** Ends the patient session (the server clears its cookie); harmless when it already ended. */
export function SignOutButton({ onSignedOut }: { onSignedOut: () => void }) {
  const [busy, setBusy] = useState(false);
  return (
    <button
      className="link-button"
      type="button"
      disabled={busy}
      onClick={async () => {
        setBusy(true);
        try {
          await rpc('auth', 'endPatientSession');
        } catch {
          // Unreachable server: the cookie stays, but it times out by itself; the page forgets it now.
        }
        onSignedOut();
      }}
    >
      {t('signOut.button')}
    </button>
  );
}

export function SignedOut({ onSignIn }: { onSignIn?: () => void }) {
  return (
    <Page title={t('signedOut.title')}>
      <h1>{t('signedOut.title')}</h1>
      <p>{t('signedOut.text')}</p>
      {onSignIn && (
        <button className="button" type="button" onClick={onSignIn}>
          {t('signedOut.again')}
        </button>
      )}
    </Page>
  );
}
