import { formatDate, type MyRoleInvitation } from '@medlocker/core';
import { useState } from 'react';
import { messageOf, rpc } from '../api/client.ts';
import { queryClient, useQuery } from '../api/queries.ts';
import { loadSession } from '../state/session.ts';
import { Banner } from '../ui/Banner.tsx';
import { Button } from '../ui/Button.tsx';
import { useAction } from '../ui/use-action.ts';

export const myInvitationsKey = ['auth', 'listMyInvitations'] as const;

/** The signed-in user's pending invitations (shared by the gate, the dashboard's notice and /invitations). */
export function useMyInvitations() {
  return useQuery(() => rpc('auth', 'listMyInvitations', {}), [...myInvitationsKey]);
}

const what = (i: MyRoleInvitation) =>
  `${i.roleName === 'Business' ? 'the business' : 'the group'} ${i.resourceName ?? '(no longer available)'}${
    i.accessLevels.includes('Admin') ? ', as an administrator' : ''
  }`;

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
      <Banner tone="error" action={<Button onPress={query.reload}>Try again</Button>}>
        {messageOf(query.error)}
      </Banner>
    );
  }
  const invitations = query.data?.invitations ?? [];
  if (invitations.length === 0 && !done && !error) return emptyText ? <p>{emptyText}</p> : null;

  const answer = async (invitation: MyRoleInvitation, accept: boolean) => {
    const ok = await run(() => rpc('auth', accept ? 'acceptInvitation' : 'declineInvitation', { id: invitation.id }));
    if (ok) {
      setDone(
        accept ? `You now have access to ${what(invitation)}.` : `You declined the invitation to ${what(invitation)}.`,
      );
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
        Invitations
      </h2>
      {done && <Banner tone="success">{done}</Banner>}
      {error && <Banner tone="error">{error}</Banner>}
      <ul className="invitations__list">
        {invitations.map((invitation) => (
          <li key={invitation.id} className="invitations__item">
            <p>
              {invitation.invitedBy ?? 'An administrator'} invited you to {what(invitation)}. The invitation expires on{' '}
              {formatDate(invitation.expires)}.
            </p>
            <div className="form__actions">
              <Button
                variant="primary"
                aria-label={`Accept the invitation to ${what(invitation)}`}
                isDisabled={pending}
                onPress={() => void answer(invitation, true)}
              >
                Accept
              </Button>
              <Button
                aria-label={`Decline the invitation to ${what(invitation)}`}
                isDisabled={pending}
                onPress={() => void answer(invitation, false)}
              >
                Decline
              </Button>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
