import { Suspense, useEffect, useRef } from 'react';
import { Navigate, useLocation } from 'react-router';
import { loadConfig, loadSession, useSessionState } from '../state/session.ts';
import { Banner } from '../ui/Banner.tsx';
import { Button } from '../ui/Button.tsx';
import { lazyPage } from '../ui/lazy-page.ts';
import { Loading } from '../ui/Page.tsx';
import { AccessRestricted } from './AccessRestricted.tsx';
import { CompleteProfile } from './CompleteProfile.tsx';
import { t } from './i18n/index.ts';
import { Shell } from './Shell.tsx';

// The set-up screen brings the QR code and WebAuthn code: loaded only for the few who need it.
const SetUpSecondFactor = lazyPage(() => import('./SetUpSecondFactor.tsx'), 'SetUpSecondFactor');

/** How often moving between pages re-checks the session, so an ended session is noticed. */
const RECHECK_ON_NAVIGATION_MS = 30_000;

/**
 * The gate in front of every console page (SPEC §2): not logged in → /auth/login?from=…; logged
 * in with neither the support nor the pharmacy scope → Access Restricted; a second factor to set up →
 * that alone; a blank given or family name → complete profile; otherwise the shell with the page (support-only pages: see SupportOnly).
 */
export function RequireSupport() {
  const state = useSessionState();
  const location = useLocation();
  useSessionWatch(state.status === 'active' ? state.session.expires : undefined, location.pathname);

  switch (state.status) {
    case 'loading':
      return (
        <div className="centered">
          <Loading />
        </div>
      );
    case 'unreachable':
      return <Unreachable message={state.message} />;
    case 'anonymous': {
      // After Log Out, the login page plain: the page left is not one to come back to.
      const from = state.loggedOut ? '/' : `${location.pathname}${location.search}`;
      const to = from === '/' ? '/auth/login' : `/auth/login?from=${encodeURIComponent(from)}`;
      return <Navigate to={to} replace />;
    }
    case 'active': {
      const { session } = state;
      // Support staff, and pharmacy users (Business or Group roles) for what they reach; nobody else.
      if (!session.scopes.includes('support') && !session.scopes.includes('pharmacy')) return <AccessRestricted />;
      // Policy wants a second factor and the user has none: nothing else until one is set up.
      if (session.secondFactorSetupRequired)
        return (
          <Suspense fallback={<Loading />}>
            <SetUpSecondFactor />
          </Suspense>
        );
      if (!session.user.givenName.trim() || !session.user.familyName.trim()) return <CompleteProfile />;
      return <Shell />;
    }
  }
}

/**
 * Notices a session that ends on its own: re-checks when it is due to expire, when the tab comes
 * back into view, and on navigation now and then. A 401 answer sends the user to login with the
 * timeout message (see state/session.ts).
 */
function useSessionWatch(expires: number | undefined, pathname: string) {
  const lastCheck = useRef(Date.now());

  useEffect(() => {
    if (expires === undefined) return;
    // Timers beyond ~24 days overflow; the visibility and navigation checks cover those.
    const delay = Math.min(Math.max(expires - Date.now() + 1000, 1000), 2 ** 31 - 1);
    const timer = setTimeout(() => void loadSession(), delay);
    return () => clearTimeout(timer);
  }, [expires]);

  useEffect(() => {
    if (expires === undefined) return;
    const onVisible = () => {
      if (document.visibilityState === 'visible') {
        lastCheck.current = Date.now();
        void loadSession();
      }
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, [expires]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: re-run on every page change
  useEffect(() => {
    if (expires === undefined) return;
    if (Date.now() - lastCheck.current < RECHECK_ON_NAVIGATION_MS) return;
    lastCheck.current = Date.now();
    void loadSession();
  }, [pathname]);
}

function Unreachable({ message }: { message: string }) {
  const retry = () => {
    void loadConfig();
    void loadSession();
  };
  return (
    <main className="centered">
      <div className="card">
        <Banner tone="error" action={<Button onPress={retry}>{t('shell.tryAgain')}</Button>}>
          {message}
        </Banner>
      </div>
    </main>
  );
}
