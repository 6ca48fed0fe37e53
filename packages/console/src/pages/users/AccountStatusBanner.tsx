import { formatDate, formatDateTime } from '@medlocker/core';
import { useState } from 'react';
import { rpc } from '../../api/client.ts';
import { useQuery } from '../../api/queries.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { useAction } from '../../ui/use-action.ts';

/**
 * Whether a user's account can sign in, on `/users/{id}` (support) and a business's or group's user page
 * (its Admins): when it was last used and, for an account disabled for not being used, Enable account.
 */
export function AccountStatusBanner({ userId }: { userId: string }) {
  const query = useQuery(
    (signal) => rpc('auth', 'getAccountStatus', { userId }, { signal }),
    ['auth', 'getAccountStatus', userId],
  );
  const { pending, error, run } = useAction();
  const [enabled, setEnabled] = useState(false);
  const status = query.data;
  if (!status) return null;
  const lastSignIn = (
    <p className="muted">Last signed in: {status.lastSignIn === null ? 'never' : formatDateTime(status.lastSignIn)}</p>
  );
  if (status.disabledAt === null) {
    return (
      <>
        {enabled && <Banner tone="success">Account enabled. The user can sign in again.</Banner>}
        {lastSignIn}
      </>
    );
  }
  return (
    <>
      <Banner
        tone="warning"
        title="Account disabled"
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
            Enable account
          </Button>
        }
      >
        <p>
          Disabled on {formatDate(status.disabledAt)}
          {status.disabledReason === 'inactive' ? ' because it had not been used for too long' : ''}. The user cannot
          sign in until the account is enabled.
        </p>
        {error && <p role="alert">{error}</p>}
      </Banner>
      {lastSignIn}
    </>
  );
}
