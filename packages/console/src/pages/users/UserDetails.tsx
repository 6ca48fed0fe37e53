import type { Role } from '@medlocker/core';
import { useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { type RpcOutput, rpc } from '../../api/client.ts';
import { useRpcQuery } from '../../api/queries.ts';
import { useFlashNotice } from '../../shell/flash.ts';
import { useCurrentUser, useHasSupportScope } from '../../state/session.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { ConfirmAction } from '../../ui/Dialog.tsx';
import { Link } from '../../ui/Link.tsx';
import { LoadError } from '../../ui/LoadError.tsx';
import { Loading, Page } from '../../ui/Page.tsx';
import { ActionCell, ActionsColumn, Cell, Column, Row, Table, TableBody, TableHeader } from '../../ui/Table.tsx';
import { SessionsSection } from '../account/Sessions.tsx';
import { AccountStatusBanner } from './AccountStatusBanner.tsx';
import { EditIdentityProviderDialog } from './EditIdentityProviderDialog.tsx';
import { t } from './i18n/index.ts';
import { UserDetailsBlock } from './UserDetailsBlock.tsx';
import { UserSecondFactors } from './UserSecondFactors.tsx';

const roleKey = (role: Role) => `${role.name}:${role.resource ?? '*'}`;

/**
 * SPEC §2 `/users/{userId}`: the profile, identity provider and roles of one person. Also under
 * `/businesses/{id}/users/` and `/groups/{id}/users/`, where a pharmacy Admin sees the person's roles
 * on what they administer (the server leaves out the rest), removes them (not their own) and adds
 * more through their Users tab; identity providers stay support's.
 */
export function UserDetails() {
  const { userId = '' } = useParams();
  const query = useRpcQuery(['users', 'getUser', userId], { id: userId });
  if (!query.data) {
    return (
      <Page title={t('users.user.title')}>
        {query.error ? <LoadError error={query.error} onRetry={query.reload} /> : <Loading />}
      </Page>
    );
  }
  return <UserPage data={query.data} reload={query.reload} />;
}

type UserAnswer = RpcOutput<'users', 'getUser'>;

function UserPage({ data, reload }: { data: UserAnswer; reload: () => void }) {
  const notice = useFlashNotice();
  const support = useHasSupportScope();
  const me = useCurrentUser();
  const navigate = useNavigate();
  // The resource's users list this page sits under (`/businesses/{id}/users`), or `/users`.
  const usersPath = useLocation().pathname.replace(/\/[^/]*$/, '');
  const [removing, setRemoving] = useState<Role | null>(null);
  const [editingIdp, setEditingIdp] = useState(false);
  const [changed, setChanged] = useState<string>();
  const { user, roles, identityProvider } = data;
  const isSupport = roles.some((r) => r.name === 'Support' || r.name === 'support');
  const message = changed ?? notice;

  const removed = (role: Role) => {
    // A pharmacy Admin may no longer see the person at all: back to the list, with the news.
    if (!support) {
      navigate(usersPath, { state: { notice: t('users.user.roleRemovedFrom', { role: role.name, name: user.name }) } });
      return;
    }
    setChanged(t('users.user.roleRemoved', { role: role.name }));
    setRemoving(null);
    reload();
  };

  return (
    <Page
      title={user.name}
      actions={
        <>
          {support && (isSupport || identityProvider) && (
            <Button onPress={() => setEditingIdp(true)}>{t('users.user.editIdp')}</Button>
          )}
          <Link
            href={support ? '/users/add/support' : `${usersPath}/add`}
            routerOptions={{ state: { email: user.email, userId: user.id } }}
            variant="primary-button"
          >
            {t('users.user.addRole')}
          </Link>
        </>
      }
    >
      {message && <Banner tone="success">{message}</Banner>}
      <UserDetailsBlock user={user} identityProvider={identityProvider} />
      <AccountStatusBanner userId={user.id} />
      <RolesTable roles={roles} mayRemove={support || user.id !== me?.id} onRemove={setRemoving} />
      {/* Support staff only: a pharmacy Admin does not see a colleague's sessions (docs/decisions/auth.md). */}
      {support && <SessionsSection userId={user.id} userName={user.name} />}
      {support && !identityProvider && <UserSecondFactors userId={user.id} userName={user.name} />}
      {removing && (
        <RemoveRoleConfirm
          userId={user.id}
          userName={user.name}
          role={removing}
          onDone={() => removed(removing)}
          onCancel={() => setRemoving(null)}
        />
      )}
      {editingIdp && (
        <EditIdentityProviderDialog
          email={user.email}
          frontEnd={isSupport ? 'support' : 'pharmacy'}
          currentId={identityProvider?.id ?? null}
          onClose={(saved) => {
            setEditingIdp(false);
            if (saved) {
              setChanged(t('users.user.idpChanged'));
              reload();
            }
          }}
        />
      )}
    </Page>
  );
}

/** The person's roles, each with Remove when this user may take it away. */
function RolesTable({
  roles,
  mayRemove,
  onRemove,
}: {
  roles: Role[];
  mayRemove: boolean;
  onRemove: (role: Role) => void;
}) {
  return (
    <>
      <h2 className="section-title" id="roles-title">
        {t('users.roles.title')}
      </h2>
      <Table aria-labelledby="roles-title">
        <TableHeader>
          <Column isRowHeader>{t('users.roles.role')}</Column>
          <Column>{t('users.roles.resource')}</Column>
          <Column>{t('users.roles.accessLevels')}</Column>
          <ActionsColumn />
        </TableHeader>
        <TableBody items={roles.map((r) => ({ ...r, id: roleKey(r) }))} emptyText={t('users.roles.empty')}>
          {(role) => (
            <Row id={role.id}>
              <Cell>{role.name}</Cell>
              <Cell>
                <ResourceCell role={role} />
              </Cell>
              <Cell>{role.accessLevels.length > 0 ? role.accessLevels.join(', ') : '—'}</Cell>
              <ActionCell
                label={
                  role.resourceName
                    ? t('users.roles.removeLabelFor', { role: role.name, resource: role.resourceName })
                    : t('users.roles.removeLabel', { role: role.name })
                }
                onPress={() => onRemove(role)}
                isOffered={mayRemove}
              >
                {t('users.roles.remove')}
              </ActionCell>
            </Row>
          )}
        </TableBody>
      </Table>
    </>
  );
}

/** SPEC §2: a link to the business or group; 'restricted' when its name is unknown; '*' for none. */
function ResourceCell({ role }: { role: Role }) {
  if (!role.resource) return <span>*</span>;
  if (!role.resourceName) return <span className="muted">{t('users.roles.restricted')}</span>;
  const base =
    role.resourceType === 'group' || role.name === 'Group' || role.name === 'group' ? '/groups' : '/businesses';
  return <Link href={`${base}/${encodeURIComponent(role.resource)}`}>{role.resourceName}</Link>;
}

/** "Remove role?": the person loses the role when confirmed. */
function RemoveRoleConfirm({
  userId,
  userName,
  role,
  onDone,
  onCancel,
}: {
  userId: string;
  userName: string;
  role: Role;
  onDone: () => void;
  onCancel: () => void;
}) {
  return (
    <ConfirmAction
      title={t('users.removeRole.title')}
      cancelLabel={t('users.removeRole.keep')}
      confirmLabel={t('users.removeRole.confirm')}
      action={() => rpc('auth', 'removeRole', { roleName: role.name, roleResource: role.resource, userId })}
      onDone={onDone}
      onCancel={onCancel}
    >
      <p>
        {role.resource
          ? t('users.removeRole.bodyFor', {
              user: userName,
              role: role.name,
              resource: role.resourceName ?? t('users.removeRole.restricted'),
            })
          : t('users.removeRole.body', { user: userName, role: role.name })}
      </p>
    </ConfirmAction>
  );
}
