import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { ApiError, messageOf, rpc } from '../../api/client.ts';
import { Page } from '../../ui/Page.tsx';
import { PageForm, useSaveState } from '../../ui/PageForm.tsx';
import type { AddUserRoleState } from './AddUserRole.tsx';
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
        navigate(`${usersPath}/${encodeURIComponent(answer.userId)}`, { state: { notice: `${roleName} role added.` } });
      } else {
        navigate(usersPath, {
          state: { notice: `Invitation sent to ${email.trim()}. They get access once they accept it.` },
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
    <Page
      title="Add user"
      lead={`Give someone access to ${resource.name} by their email address. They are invited by email and get access once they sign in and accept; someone new first chooses a password and gives their name.`}
    >
      <PageForm state={save} save={submit} cancelHref={usersPath} submitLabel="Add user">
        <RoleEmailField value={email} onChange={setEmail} />
        <AdminCheckbox roleName={roleName} isSelected={asAdmin} onChange={setAsAdmin} />
      </PageForm>
    </Page>
  );
}
