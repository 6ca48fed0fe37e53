import type { Role } from '@medlocker/core';
import { useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { type RpcOutput, rpc } from '../../api/client.ts';
import { useQuery } from '../../api/queries.ts';
import { useFlashNotice } from '../../shell/flash.ts';
import { useCurrentUser, useHasSupportScope } from '../../state/session.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { ConfirmAction, confirmWords } from '../../ui/Dialog.tsx';
import { Link } from '../../ui/Link.tsx';
import { LoadError } from '../../ui/LoadError.tsx';
import { Loading, Page } from '../../ui/Page.tsx';
import { ActionsColumn, Cell, Column, Row, Table, TableBody, TableHeader } from '../../ui/Table.tsx';
import { SessionsSection } from '../account/Sessions.tsx';
import { AccountStatusBanner } from './AccountStatusBanner.tsx';
import { EditIdentityProviderDialog } from './EditIdentityProviderDialog.tsx';
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
  const query = useQuery((signal) => rpc('users', 'getUser', { id: userId }, { signal }), ['users', 'getUser', userId]);
  if (!query.data) {
    return (
      <Page title="User">{query.error ? <LoadError error={query.error} onRetry={query.reload} /> : <Loading />}</Page>
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
      navigate(usersPath, { state: { notice: `${role.name} role removed from ${user.name}.` } });
      return;
    }
    setChanged(`${role.name} role removed.`);
    setRemoving(null);
    reload();
  };

  return (
    <Page
      title={user.name}
      actions={
        <>
          {support && (isSupport || identityProvider) && (
            <Button onPress={() => setEditingIdp(true)}>Edit identity provider</Button>
          )}
          <Link
            href={support ? '/users/add/support' : `${usersPath}/add`}
            routerOptions={{ state: { email: user.email, userId: user.id } }}
            variant="primary-button"
          >
            Add role
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
              setChanged('Identity provider changed.');
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
        Roles
      </h2>
      <Table aria-labelledby="roles-title">
        <TableHeader>
          <Column isRowHeader>Role</Column>
          <Column>Resource</Column>
          <Column>Access Levels</Column>
          <ActionsColumn />
        </TableHeader>
        <TableBody items={roles.map((r) => ({ ...r, id: roleKey(r) }))} emptyText="The user has no roles">
          {(role) => (
            <Row id={role.id}>
              <Cell>{role.name}</Cell>
              <Cell>
                <ResourceCell role={role} />
              </Cell>
              <Cell>{role.accessLevels.length > 0 ? role.accessLevels.join(', ') : '—'}</Cell>
              <Cell>
                {mayRemove && (
                  <Button
                    variant="quiet"
                    aria-label={`Remove role ${role.name}${role.resourceName ? ` for ${role.resourceName}` : ''}`}
                    onPress={() => onRemove(role)}
                  >
                    Remove
                  </Button>
                )}
              </Cell>
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
  if (!role.resourceName) return <span className="muted">restricted</span>;
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
      {...confirmWords('Remove', 'role')}
      isOpen
      action={() => rpc('auth', 'removeRole', { roleName: role.name, roleResource: role.resource, userId })}
      onDone={onDone}
      onCancel={onCancel}
    >
      <p>
        {userName} will lose the {role.name} role
        {role.resource ? ` for ${role.resourceName ?? 'a restricted resource'}` : ''}.
      </p>
    </ConfirmAction>
  );
}
