import { formatDate, type RoleInvitation } from '@medlocker/core';
import { useState } from 'react';
import { rpc } from '../../api/client.ts';
import { useRpcQuery } from '../../api/queries.ts';
import { Banner } from '../../ui/Banner.tsx';
import { ConfirmAction } from '../../ui/Dialog.tsx';
import { LoadError } from '../../ui/LoadError.tsx';
import { ActionCell, ActionsColumn, Cell, Column, Row, Table, TableBody, TableHeader } from '../../ui/Table.tsx';
import { t } from './i18n/index.ts';

/**
 * Under a business's or group's Users list, for its Admins and support staff: the people invited and
 * not yet answered (Email, Role, Invited, Expires), each with Cancel (docs/decisions/auth.md, Role
 * invitations). Shown only when there are some; the email is all an invitation says of the person.
 */
export function PendingInvitations({ roleName, resourceId }: { roleName: 'Business' | 'Group'; resourceId: string }) {
  const query = useRpcQuery(['auth', 'listInvitations', roleName, resourceId], { roleName, roleResource: resourceId });
  const [cancelling, setCancelling] = useState<RoleInvitation>();
  const [notice, setNotice] = useState<string>();
  if (query.error) return <LoadError error={query.error} onRetry={query.reload} />;
  const invitations = query.data?.invitations ?? [];
  if (invitations.length === 0 && !notice) return null;
  return (
    <>
      <h2 className="section-title" id="invitations-title">
        {t('users.invitations.title')}
      </h2>
      {notice && <Banner tone="success">{notice}</Banner>}
      <Table aria-labelledby="invitations-title">
        <TableHeader>
          <Column isRowHeader>{t('users.invitations.email')}</Column>
          <Column>{t('users.invitations.role')}</Column>
          <Column>{t('users.invitations.invited')}</Column>
          <Column>{t('users.invitations.expires')}</Column>
          <ActionsColumn />
        </TableHeader>
        <TableBody items={invitations} emptyText={t('users.invitations.empty')}>
          {(invitation) => (
            <Row id={invitation.id}>
              <Cell>
                <span className="cell-email">{invitation.email}</span>
              </Cell>
              <Cell>
                {invitation.accessLevels.includes('Admin')
                  ? t('users.invitations.roleAdmin', { role: invitation.roleName })
                  : invitation.roleName}
              </Cell>
              <Cell>
                {invitation.invitedBy
                  ? t('users.invitations.invitedBy', { date: formatDate(invitation.created), by: invitation.invitedBy })
                  : formatDate(invitation.created)}
              </Cell>
              <Cell>{formatDate(invitation.expires)}</Cell>
              <ActionCell
                label={t('users.invitations.cancelLabel', { email: invitation.email })}
                onPress={() => setCancelling(invitation)}
              >
                {t('users.invitations.cancel')}
              </ActionCell>
            </Row>
          )}
        </TableBody>
      </Table>
      {cancelling && (
        <ConfirmAction
          title={t('users.invitations.confirmTitle')}
          cancelLabel={t('users.invitations.confirmKeep')}
          confirmLabel={t('users.invitations.confirm')}
          action={() => rpc('auth', 'cancelInvitation', { id: cancelling.id })}
          onDone={() => {
            setNotice(t('users.invitations.cancelled', { email: cancelling.email }));
            setCancelling(undefined);
            query.reload();
          }}
          onCancel={() => setCancelling(undefined)}
        >
          <p>{t('users.invitations.confirmBody', { email: cancelling.email })}</p>
        </ConfirmAction>
      )}
    </>
  );
}
