import { useState } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { ApiError, messageOf, rpc } from '../../api/client.ts';
import { resourcePath } from '../../paths.ts';
import { AccessRestricted } from '../../shell/AccessRestricted.tsx';
import { type Resource, roleNameOf, useAdministers } from '../../state/reach.ts';
import { useHasSupportScope } from '../../state/session.ts';
import { Page } from '../../ui/Page.tsx';
import { PageForm, useSaveState } from '../../ui/PageForm.tsx';
import type { AddUserRoleState } from './AddUserRole.tsx';
import { t } from './i18n/index.ts';
import { AdminCheckbox, RoleEmailField } from './role-fields.tsx';

export type AddResourceUserProps = {
  /** The role given: Business on a business, Group on a group. */
  roleName: 'Business' | 'Group';
  resource: { id: string; name: string };
  /** The resource's users list: Cancel goes back to it, the new user's page is under it. */
  usersPath: string;
};

/**
 * `/businesses/{id}/users/add` and `/groups/{id}/users/add` for a pharmacy Admin (SPEC §1, §6): give a
 * person, by email, the Business or Group role on this business or group, with or without Admin.
 * Support staff use the full Add user page (`/users/add/{role}/{resource}`), with every role. No name
 * fields: a pharmacy Admin cannot rename a person (who may work for other businesses too); someone new
 * names themselves on the complete-profile screen at first sign-in (SPEC §1).
 */
export function AddResourceUser({ roleName, resource, usersPath }: AddResourceUserProps) {
  const navigate = useNavigate();
  const state = useLocation().state as AddUserRoleState;
  const [email, setEmail] = useState(state?.email ?? '');
  const [asAdmin, setAsAdmin] = useState(false);
  const save = useSaveState();

  const submit = async () => {
    save.start();
    try {
      const answer = await rpc('auth', 'addRoles', {
        addIdpByDefault: false,
        email,
        frontEnd: 'pharmacy',
        resourceId: resource.id,
        resourceType: roleName === 'Business' ? 'business' : 'group',
        roles: [{ name: roleName, resource: resource.id, accessLevels: asAdmin ? ['Admin'] : [] }],
      });
      // A colleague already here gets the role at once; anyone else is invited, and the same is said
      // whether the email had an account or not (docs/decisions/auth.md, Role invitations).
      if (answer.outcome === 'added') {
        navigate(`${usersPath}/${encodeURIComponent(answer.userId)}`, {
          state: { notice: t('users.add.roleAdded', { role: roleName }) },
        });
      } else {
        navigate(usersPath, {
          state: { notice: t('users.add.invited', { email: email.trim() }) },
        });
      }
    } catch (e) {
      save.fail(e);
      // Only the email is a field here: any other message is about the form.
      if (!(e instanceof ApiError && e.details.some((d) => d.path === 'email'))) {
        save.setFieldErrors({});
        save.setError(messageOf(e));
      }
    }
  };

  return (
    <Page title={t('users.add.title')} lead={t('users.add.lead', { resource: resource.name })}>
      <PageForm state={save} save={submit} cancelHref={usersPath} submitLabel={t('users.add.title')}>
        <RoleEmailField value={email} onChange={setEmail} />
        <AdminCheckbox roleName={roleName} isSelected={asAdmin} onChange={setAsAdmin} />
      </PageForm>
    </Page>
  );
}

/**
 * `/businesses/{id}/users/add` and `/groups/{id}/users/add` as routes: support staff get the Add user
 * page with the Business or Group role on this one; its Admins add people here (the server refuses
 * anyone else); an archived one takes no one and goes back to its users.
 */
export function AddUserHere({
  resource,
  reach,
}: {
  resource: AddResourceUserProps['resource'] & { archived: unknown };
  reach: Resource;
}) {
  const roleName = roleNameOf(reach);
  const support = useHasSupportScope();
  const manages = useAdministers(reach);
  const usersPath = `${resourcePath(reach.kind, reach.id)}/users`;
  if (resource.archived) return <Navigate to={usersPath} replace />;
  if (manages === false) return <AccessRestricted inShell />;
  if (!support) return <AddResourceUser roleName={roleName} resource={resource} usersPath={usersPath} />;
  return (
    <Navigate
      to={`/users/add/${reach.kind}/${encodeURIComponent(resource.id)}`}
      replace
      state={{ resourceName: resource.name, returnTo: usersPath }}
    />
  );
}
