import { formatDateTime } from '@medlocker/core';
import { useState } from 'react';
import { rpc } from '../../api/client.ts';
import { useQuery } from '../../api/queries.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { ConfirmAction } from '../../ui/Dialog.tsx';
import { LoadError } from '../../ui/LoadError.tsx';
import { Loading } from '../../ui/Page.tsx';
import { SectionHead } from '../../ui/Section.tsx';

/**
 * Support's view of another user's second factors on `/users/{id}`, with Reset second factors for a user
 * who lost their phone or key: every factor and recovery code goes, the user is signed out and told by email.
 */
export function UserSecondFactors({ userId, userName }: { userId: string; userName: string }) {
  const query = useQuery(
    (signal) => rpc('auth', 'listSecondFactors', { userId }, { signal }),
    ['auth', 'listSecondFactors', userId],
  );
  const [resetting, setResetting] = useState(false);
  const [notice, setNotice] = useState<string>();
  const factors = query.data?.factors ?? [];
  return (
    <section aria-labelledby="user-second-factor-title">
      <SectionHead
        id="user-second-factor-title"
        title="Second factor"
        actions={
          factors.length > 0 && (
            <Button variant="danger" onPress={() => setResetting(true)}>
              Reset second factors
            </Button>
          )
        }
      />
      {notice && <Banner tone="success">{notice}</Banner>}
      {query.error ? (
        <LoadError error={query.error} onRetry={query.reload} />
      ) : !query.data ? (
        <Loading />
      ) : factors.length === 0 ? (
        <p className="muted">
          No second factor{query.data.required ? ': one will be asked for at the next sign-in.' : '.'}
        </p>
      ) : (
        <ul>
          {factors.map((f) => (
            <li key={f.id}>
              {f.name} ({f.kind === 'totp' ? 'authenticator app' : 'passkey'}), last used{' '}
              {f.lastUsed === null ? 'never' : formatDateTime(f.lastUsed)}
            </li>
          ))}
        </ul>
      )}
      {resetting && (
        <ConfirmAction
          title="Reset second factors?"
          cancelLabel="Keep them"
          confirmLabel="Reset second factors"
          tone="danger"
          isOpen
          action={() => rpc('auth', 'resetSecondFactors', { userId })}
          onDone={() => {
            setResetting(false);
            setNotice(`${userName}'s second factors were removed and they were told by email.`);
            query.reload();
          }}
          onCancel={() => setResetting(false)}
        >
          <p>
            {userName}'s passkeys, authenticator apps and recovery codes are removed and they are signed out everywhere.
            Do this only when you are sure who asked.
          </p>
        </ConfirmAction>
      )}
    </section>
  );
}
