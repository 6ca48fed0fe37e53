import { formatDate, formatDateTime } from '@medlocker/core';
import { useState } from 'react';
import { rpc } from '../../api/client.ts';
import { useRpcQuery } from '../../api/queries.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { useAction } from '../../ui/use-action.ts';
import { t } from './i18n/index.ts';

/**
 * Whether a user's account can sign in, on `/users/{id}` (support) and a business's or group's user page
 * (its Admins): when it was last used and, for an account disabled for not being used, Enable account.
 */
export function AccountStatusBanner({ userId }: { userId: string }) {
  const query = useRpcQuery(['auth', 'getAccountStatus', userId], { userId });
  const { pending, error, run } = useAction();
  const [enabled, setEnabled] = useState(false);
  const status = query.data;
  if (!status) return null;
  const lastSignIn = (
    <p className="muted">
      {t('users.status.lastSignIn', {
        when: status.lastSignIn === null ? t('users.status.never') : formatDateTime(status.lastSignIn),
      })}
    </p>
  );
  if (status.disabledAt === null) {
    return (
      <>
        {enabled && <Banner tone="success">{t('users.status.enabled')}</Banner>}
        {lastSignIn}
      </>
    );
  }
  return (
    <>
      <Banner
        tone="warning"
        title={t('users.status.disabledTitle')}
        action={
          <Button
            variant="primary"
            isPending={pending}
            onPress={async () => {
              if (await run(() => rpc('auth', 'enableUser', { userId }))) {
                setEnabled(true);
                query.reload();
              }
            }}
          >
            {t('users.status.enable')}
          </Button>
        }
      >
        <p>
          {t(status.disabledReason === 'inactive' ? 'users.status.disabledInactive' : 'users.status.disabled', {
            date: formatDate(status.disabledAt),
          })}
        </p>
        {error && <p role="alert">{error}</p>}
      </Banner>
      {lastSignIn}
    </>
  );
}
