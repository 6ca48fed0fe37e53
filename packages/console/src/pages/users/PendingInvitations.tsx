import { formatDate, type RoleInvitation } from '@medlocker/core';
import { useState } from 'react';
import { rpc } from '../../api/client.ts';
import { useQuery } from '../../api/queries.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { ConfirmAction, confirmWords } from '../../ui/Dialog.tsx';
import { LoadError } from '../../ui/LoadError.tsx';
import { ActionsColumn, Cell, Column, Row, Table, TableBody, TableHeader } from '../../ui/Table.tsx';

/**
 * Under a business's or group's Users list, for its Admins and support staff: the people invited and
 * not yet answered (Email, Role, Invited, Expires), each with Cancel (docs/decisions/auth.md, Role
 * invitations). Shown only when there are some; the email is all an invitation says of the person.
 */
export function PendingInvitations({ roleName, resourceId }: { roleName: 'Business' | 'Group'; resourceId: string }) {
  const query = useQuery(
    () => rpc('auth', 'listInvitations', { roleName, roleResource: resourceId }),
    ['auth', 'listInvitations', roleName, resourceId],
  );
  const [cancelling, setCancelling] = useState<RoleInvitation>();
  const [notice, setNotice] = useState<string>();
  if (query.error) return <LoadError error={query.error} onRetry={query.reload} />;
  const invitations = query.data?.invitations ?? [];
  if (invitations.length === 0 && !notice) return null;
  return (
    <>
      <h2 className="section-title" id="invitations-title">
        Pending invitations
      </h2>
      {notice && <Banner tone="success">{notice}</Banner>}
      <Table aria-labelledby="invitations-title">
        <TableHeader>
          <Column isRowHeader>Email</Column>
          <Column>Role</Column>
          <Column>Invited</Column>
          <Column>Expires</Column>
          <ActionsColumn />
        </TableHeader>
        <TableBody items={invitations} emptyText="No pending invitations">
          {(invitation) => (
            <Row id={invitation.id}>
              <Cell>
                <span className="cell-email">{invitation.email}</span>
              </Cell>
              <Cell>{`${invitation.roleName}${invitation.accessLevels.includes('Admin') ? ' (Admin)' : ''}`}</Cell>
              <Cell>{`${formatDate(invitation.created)}${invitation.invitedBy ? ` by ${invitation.invitedBy}` : ''}`}</Cell>
              <Cell>{formatDate(invitation.expires)}</Cell>
              <Cell>
                <Button
                  variant="quiet"
                  aria-label={`Cancel the invitation of ${invitation.email}`}
                  onPress={() => setCancelling(invitation)}
                >
                  Cancel
                </Button>
              </Cell>
            </Row>
          )}
        </TableBody>
      </Table>
      {cancelling && (
        <ConfirmAction
          {...confirmWords('Cancel', 'invitation')}
          isOpen
          action={() => rpc('auth', 'cancelInvitation', { id: cancelling.id })}
          onDone={() => {
            setNotice(`The invitation of ${cancelling.email} was cancelled.`);
            setCancelling(undefined);
            query.reload();
          }}
          onCancel={() => setCancelling(undefined)}
        >
          <p>{cancelling.email} will no longer be able to accept it.</p>
        </ConfirmAction>
      )}
    </>
  );
}
