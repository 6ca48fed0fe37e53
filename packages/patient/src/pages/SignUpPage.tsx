import type { OnlineSignUp, SignUpBusiness } from '@medlocker/core';
import { useEffect, useState } from 'react';
import { ApiError, messageOf, rpc } from '../api.ts';
import { showPharmacyDefault, t } from '../i18n/index.ts';
import { Loading, Page } from '../ui.tsx';
import { NotFound } from './NotFound.tsx';
import { SignUpCodes } from './SignUpCodes.tsx';
import { SignUpForm } from './SignUpForm.tsx';

/*
 * `/signup/{businessId}`: a new patient signs up with a pharmacy that takes sign-ups online
 * (docs/decisions/patients.md, "Online sign-ups"). Three screens: the form (SignUpForm); a code for each
 * contact given, with a way to send new ones (SignUpCodes); then thanks. The server keeps the sign-up
 * behind an HttpOnly cookie, so a reload comes back to the screen the patient was on.
 */

type Loaded =
  | { state: 'loading' }
  | { state: 'closed'; message: string }
  | { state: 'error'; message: string }
  | { state: 'open'; business: SignUpBusiness; signUp: OnlineSignUp | null };

export function SignUpPage({ businessId }: { businessId: string }) {
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  useEffect(() => {
    let live = true;
    void (async () => {
      try {
        const business = await rpc('patientSignUps', 'business', { businessId });
        // A Welsh or bilingual pharmacy's page opens in Welsh (the switch offers English).
        await showPharmacyDefault(business.patientLanguage).catch(() => undefined);
        // A sign-up this browser already started with this pharmacy picks up where it was.
        const signUp = await rpc('patientSignUps', 'get').catch(() => null);
        if (live) setLoaded({ state: 'open', business, signUp: signUp?.businessId === businessId ? signUp : null });
      } catch (error) {
        if (!live) return;
        if (error instanceof ApiError && error.status === 404) setLoaded({ state: 'closed', message: error.message });
        else setLoaded({ state: 'error', message: messageOf(error) });
      }
    })();
    return () => {
      live = false;
    };
  }, [businessId]);

  if (loaded.state === 'loading') return <Loading title={t('signUp.page')} />;
  if (loaded.state === 'closed') return <NotFound message={loaded.message} />;
  if (loaded.state === 'error') {
    return (
      <Page title={t('signUp.page')}>
        <h1>{t('signUp.page')}</h1>
        <p role="alert">{loaded.message}</p>
      </Page>
    );
  }
  const { business, signUp } = loaded;
  const show = (next: OnlineSignUp | null) => setLoaded({ state: 'open', business, signUp: next });
  if (signUp === null) return <SignUpForm business={business} onStarted={show} />;
  if (signUp.status === 'new') return <SignUpCodes signUp={signUp} onChange={show} onStartAgain={() => show(null)} />;
  return <Thanks signUp={signUp} />;
}

function Thanks({ signUp }: { signUp: OnlineSignUp }) {
  return (
    <Page title={t('signUp.thanksTitle')}>
      <div className="panel">
        <h1>{t('signUp.thanks')}</h1>
        <p>{t('signUp.thanksText', { business: signUp.businessName })}</p>
      </div>
      <p>{t('signUp.close')}</p>
    </Page>
  );
}
