import { nhsLoginFailureOf, nhsLoginMessages } from '@medlocker/core';
import { useEffect, useState } from 'react';
import { rpc } from '../api.ts';
import { t } from '../i18n/index.ts';

/**
 * NHS login, the identity check's third way, where the order's business offers it: the button takes the
 * browser to NHS login (the api keeps the state, nonce and PKCE verifier), which sends it back to the
 * order's page signed in, or with `?nhsLogin=<reason>` when the login was refused.
 */

/** The refusal NHS login came back with, in words (null when the address names none). */
export function nhsLoginRefusalInUrl(): string | null {
  const reason = nhsLoginFailureOf(new URLSearchParams(location.search).get('nhsLogin'));
  return reason ? nhsLoginMessages[reason] : null;
}

/** Takes the refusal off the address once shown, so a reload does not say it again. */
export function useForgetNhsLoginRefusal(): void {
  useEffect(() => {
    const params = new URLSearchParams(location.search);
    if (!params.has('nhsLogin')) return;
    params.delete('nhsLogin');
    const rest = params.toString();
    history.replaceState(null, '', `${location.pathname}${rest ? `?${rest}` : ''}`);
  }, []);
}

/** Whether the order's business offers NHS login (false until known, and on any failure to ask). */
export function useNhsLoginOffered(orderId: string): boolean {
  const [offered, setOffered] = useState(false);
  useEffect(() => {
    let live = true;
    rpc('auth', 'patientSignInOptions', { orderId })
      .then((options) => live && setOffered(options.nhsLogin))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [orderId]);
  return offered;
}

export function NhsLoginOption(props: {
  orderId: string;
  busy: boolean;
  run: (work: () => Promise<void>, failed: (error: unknown) => void) => Promise<void>;
  failed: (error: unknown) => void;
}) {
  const start = () =>
    props.run(async () => {
      const { authUrl } = await rpc('auth', 'startNhsLogin', { orderId: props.orderId });
      location.assign(authUrl);
    }, props.failed);
  return (
    <>
      <h2>{t('nhsLogin.heading')}</h2>
      <p>{t('nhsLogin.text')}</p>
      <button className="button nhs-login-button" type="button" id="nhs-login" onClick={start} disabled={props.busy}>
        {t('nhsLogin.continue')}
      </button>
    </>
  );
}
