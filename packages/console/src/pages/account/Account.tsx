import { useRpcQuery } from '../../api/queries.ts';
import { useCurrentUser } from '../../state/session.ts';
import { LoadError } from '../../ui/LoadError.tsx';
import { Loading, Page } from '../../ui/Page.tsx';
import { UserDetailsBlock } from '../users/UserDetailsBlock.tsx';
import { ChangePassword } from './ChangePassword.tsx';
import { t } from './i18n/index.ts';
import { SecondFactorsSection } from './SecondFactors.tsx';
import { SessionsSection } from './Sessions.tsx';

/**
 * `/account`: the signed-in user's own account, for support and pharmacy users alike (issue 37 §2): their
 * details, Change password and their second factors (not for single sign-on users: their provider keeps both) and
 * their sessions.
 */
export function Account() {
  const me = useCurrentUser();
  const id = me?.id ?? '';
  const query = useRpcQuery(['users', 'getUser', id], { id });
  if (!query.data) {
    return (
      <Page title={t('account.title')}>
        {query.error ? <LoadError error={query.error} onRetry={query.reload} /> : <Loading />}
      </Page>
    );
  }
  const { user, identityProvider } = query.data;
  return (
    <Page title={t('account.title')}>
      <UserDetailsBlock user={user} identityProvider={identityProvider} />
      {identityProvider ? (
        <p className="muted">{t('account.signsInElsewhere', { provider: identityProvider.name })}</p>
      ) : (
        <>
          <ChangePassword />
          <SecondFactorsSection />
        </>
      )}
      <SessionsSection />
    </Page>
  );
}
