import { formatDate, type MyRoleInvitation } from '@medlocker/core';
import { useState } from 'react';
import { messageOf, rpc } from '../api/client.ts';
import { queryClient, useRpcQuery } from '../api/queries.ts';
import { loadSession } from '../state/session.ts';
import { Banner } from '../ui/Banner.tsx';
import { Button } from '../ui/Button.tsx';
import { useAction } from '../ui/use-action.ts';
import { t } from './i18n/index.ts';

export const myInvitationsKey = ['auth', 'listMyInvitations'] as const;

/** The signed-in user's pending invitations (shared by the gate, the dashboard's notice and /invitations). */
export function useMyInvitations() {
  return useRpcQuery(myInvitationsKey, {});
}

const what = (i: MyRoleInvitation) =>
  t('shell.invitations.what', {
    kind: i.roleName === 'Business' ? 'business' : 'group',
    name: i.resourceName ?? t('shell.invitations.gone'),
    admin: i.accessLevels.includes('Admin') ? 'yes' : 'no',
  });

/**
 * The invitations a person has not answered, each with Accept and Decline (docs/decisions/auth.md, Role
 * invitations). Accepting reads the session again: someone with no role until now enters the console.
 * `emptyText`: shown when there are none (nothing at all when not given).
 */
export function MyInvitations({ emptyText }: { emptyText?: string }) {
  const query = useMyInvitations();
  const { pending, error, run } = useAction();
  const [done, setDone] = useState<string>();
  // Not LoadError: its 403 is Access Restricted, which shows this list (a user's own invitations are never a 403).
  if (query.error) {
    return (
      <Banner tone="error" action={<Button onPress={query.reload}>{t('shell.tryAgain')}</Button>}>
        {messageOf(query.error)}
      </Banner>
    );
  }
  const invitations = query.data?.invitations ?? [];
  if (invitations.length === 0 && !done && !error) return emptyText ? <p>{emptyText}</p> : null;

  const answer = async (invitation: MyRoleInvitation, accept: boolean) => {
    const ok = await run(() => rpc('auth', accept ? 'acceptInvitation' : 'declineInvitation', { id: invitation.id }));
    if (ok) {
      setDone(t(accept ? 'shell.invitations.accepted' : 'shell.invitations.declined', { what: what(invitation) }));
      if (accept) {
        await loadSession();
        await queryClient.invalidateQueries();
      }
    }
    query.reload();
  };

  return (
    <section className="invitations" aria-labelledby="my-invitations-title">
      <h2 className="section-title" id="my-invitations-title">
        {t('shell.invitations.title')}
      </h2>
      {done && <Banner tone="success">{done}</Banner>}
      {error && <Banner tone="error">{error}</Banner>}
      <ul className="invitations__list">
        {invitations.map((invitation) => (
          <li key={invitation.id} className="invitations__item">
            <p>
              {t('shell.invitations.item', {
                inviter: invitation.invitedBy ?? t('shell.invitations.someone'),
                what: what(invitation),
                expires: formatDate(invitation.expires),
              })}
            </p>
            <div className="form__actions">
              <Button
                variant="primary"
                aria-label={t('shell.invitations.acceptLabel', { what: what(invitation) })}
                isDisabled={pending}
                onPress={() => void answer(invitation, true)}
              >
                {t('shell.invitations.accept')}
              </Button>
              <Button
                aria-label={t('shell.invitations.declineLabel', { what: what(invitation) })}
                isDisabled={pending}
                onPress={() => void answer(invitation, false)}
              >
                {t('shell.invitations.decline')}
              </Button>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
