import { type AddableRoleName, validationMessages } from '@medlocker/core';
import { useState } from 'react';
import { Navigate, useLocation, useNavigate, useParams } from 'react-router';
import { ApiError, rpc } from '../../api/client.ts';
import { Checkbox } from '../../ui/Checkbox.tsx';
import { Fieldset } from '../../ui/Fieldset.tsx';
import { Page } from '../../ui/Page.tsx';
import { PageForm, type SaveState, useSaveState } from '../../ui/PageForm.tsx';
import { Select } from '../../ui/Select.tsx';
import { TextField, textFieldsOf } from '../../ui/TextField.tsx';
import { t } from './i18n/index.ts';
import { ResourcePicker } from './ResourcePicker.tsx';
import { AdminCheckbox, RoleEmailField } from './role-fields.tsx';

/** The roles support staff can give (SPEC §6), as they appear in the URL and on screen. */
const roles: Record<string, AddableRoleName> = {
  support: 'Support',
  developer: 'Developer',
  business: 'Business',
  group: 'Group',
};

/** What a user page passes when its 'Add role' button leads here. */
/** What the opening page passes: the person, the resource's name, and the page to return to (a Users tab). */
export type AddUserRoleState = { email?: string; userId?: string; resourceName?: string; returnTo?: string } | null;

/** SPEC §2/§6 `/users/add/{role}/{resource?}`: give a role to a person by email (new or existing). */
export function AddUserRole() {
  const params = useParams();
  const roleKey = (params.role ?? '').toLowerCase();
  const role = roles[roleKey];
  if (!role) return <Navigate to="/users/add/support" replace />;
  return <AddRoleForm role={role} roleKey={roleKey} resourceId={params.resource} />;
}

type Resource = { id: string; name: string };

/** What addRoles is sent: Admin and the resource only for a Business or Group role, SSO only for Support. */
function addRolesInput(
  role: AddableRoleName,
  email: string,
  resourceId: string | null,
  asAdmin: boolean,
  sso: boolean,
) {
  const scoped = role === 'Business' || role === 'Group';
  const resource = scoped ? resourceId : null;
  return {
    addIdpByDefault: role === 'Support' && sso,
    email,
    frontEnd: role === 'Support' ? ('support' as const) : ('pharmacy' as const),
    resourceId: resource,
    resourceType: role === 'Business' ? ('business' as const) : role === 'Group' ? ('group' as const) : null,
    roles: [{ name: role, resource, accessLevels: scoped && asAdmin ? ['Admin' as const] : [] }],
  };
}

/**
 * The server's refusal: beside the fields (the role's own resource on the picker), and above the form
 * too when none of them is a field of this form.
 */
function showRoleErrors(e: unknown, save: SaveState) {
  if (!(e instanceof ApiError && e.details.some((d) => d.path))) return;
  const errors = roleFieldErrors(e.fieldErrors);
  save.setFieldErrors(errors);
  if (!Object.keys(errors).some((k) => ['email', 'givenName', 'familyName', 'resourceId'].includes(k))) {
    save.setError(e.formMessage);
  }
}

type NewName = { givenName: string; familyName: string };

/** Gives the role; someone new gets the name typed too (both parts, or none). Answers their id. */
async function giveRole(input: ReturnType<typeof addRolesInput>, name: NewName): Promise<string> {
  const answer = await rpc('auth', 'addRoles', input);
  // Support staff's Add role attaches at once; a pharmacy Admin's invites (AddResourceUser.tsx).
  if (answer.outcome !== 'added') throw new Error(t('users.addRole.invitedInstead'));
  if (answer.created && name.givenName.trim() && name.familyName.trim()) {
    await rpc('users', 'updateUser', { id: answer.userId, ...name });
  }
  return answer.userId;
}

/** The server's messages by field: the role's own resource reports on the picker. */
function roleFieldErrors(errors: Record<string, string>): Record<string, string> {
  const shown = { ...errors };
  for (const [path, message] of Object.entries(errors)) {
    if (path.startsWith('roles.') && path.endsWith('.resource')) shown.resourceId = message;
  }
  return shown;
}

function AddRoleForm({ role, roleKey, resourceId }: { role: AddableRoleName; roleKey: string; resourceId?: string }) {
  const navigate = useNavigate();
  const state = useLocation().state as AddUserRoleState;
  const [email, setEmail] = useState(state?.email ?? '');
  const [name, setName] = useState<NewName>({ givenName: '', familyName: '' });
  const [resource, setResource] = useState<Resource | null>(
    resourceId ? { id: resourceId, name: state?.resourceName ?? '' } : null,
  );
  const [asAdmin, setAsAdmin] = useState(false);
  const [ssoByDefault, setSsoByDefault] = useState(false);
  const save = useSaveState();
  const scoped = role === 'Business' || role === 'Group';
  const existingUser = Boolean(state?.userId);

  const submit = async () => {
    // SPEC §5: a Business or Group role without its resource is not sent at all.
    if (scoped && !resource) {
      save.setError(undefined);
      save.setFieldErrors({ resourceId: validationMessages.FIELD_REQUIRED });
      return;
    }
    save.start();
    try {
      const userId = await giveRole(addRolesInput(role, email, resource?.id ?? null, asAdmin, ssoByDefault), name);
      navigate(state?.returnTo ?? `/users/${encodeURIComponent(userId)}`, {
        state: {
          notice: state?.returnTo
            ? t('users.add.roleAddedFor', { role, email: email.trim() })
            : t('users.add.roleAdded', { role }),
        },
      });
    } catch (e) {
      save.fail(e);
      showRoleErrors(e, save);
    }
  };

  return (
    <Page title={existingUser ? t('users.addRole.title') : t('users.add.title')} lead={t('users.addRole.lead')}>
      <PageForm
        state={save}
        save={submit}
        cancelHref={state?.returnTo ?? (state?.userId ? `/users/${encodeURIComponent(state.userId)}` : '/users')}
        submitLabel={t('users.addRole.submit')}
      >
        <RoleSelect
          roleKey={roleKey}
          onChange={(key) => {
            setResource(null);
            save.setFieldErrors({});
            navigate(`/users/add/${key}`, { replace: true, state });
          }}
        />
        <RoleEmailField value={email} onChange={setEmail} isReadOnly={existingUser} />
        {!existingUser && <NewUserName name={name} onChange={setName} />}
        {scoped && (
          <RoleResourceFields
            role={role}
            resource={resource}
            onResource={(picked) => {
              setResource(picked);
              save.setFieldErrors(({ resourceId: _dropped, ...rest }) => rest);
            }}
            error={save.fieldErrors.resourceId}
            asAdmin={asAdmin}
            onAsAdmin={setAsAdmin}
          />
        )}
        {role === 'Support' && <SsoByDefault isSelected={ssoByDefault} onChange={setSsoByDefault} />}
      </PageForm>
    </Page>
  );
}

/** The role to give; another choice opens its own address (`/users/add/{role}`). */
function RoleSelect({ roleKey, onChange }: { roleKey: string; onChange: (key: string) => void }) {
  return (
    <Select
      label={t('users.addRole.role')}
      name="role"
      selectedKey={roleKey}
      onSelectionChange={(key) => {
        if (key !== null && key !== roleKey) onChange(String(key));
      }}
      options={Object.entries(roles).map(([id, label]) => ({ id, label }))}
    />
  );
}

/** A new user's name, used only when nobody has the email address yet. */
function NewUserName({ name, onChange }: { name: NewName; onChange: (name: NewName) => void }) {
  const text = textFieldsOf(name, onChange);
  return (
    <Fieldset legend={t('users.addRole.newName')} description={t('users.addRole.newNameHint')}>
      <div className="fieldset__row">
        <TextField label={t('users.addRole.givenName')} autoComplete="off" {...text('givenName')} />
        <TextField label={t('users.addRole.familyName')} autoComplete="off" {...text('familyName')} />
      </div>
    </Fieldset>
  );
}

/** The business or group a Business or Group role is on, and whether it comes with Admin. */
function RoleResourceFields({
  role,
  resource,
  onResource,
  error,
  asAdmin,
  onAsAdmin,
}: {
  role: 'Business' | 'Group';
  resource: Resource | null;
  onResource: (picked: Resource | null) => void;
  error?: string;
  asAdmin: boolean;
  onAsAdmin: (selected: boolean) => void;
}) {
  return (
    <>
      <ResourcePicker
        key={role}
        kind={role === 'Business' ? 'business' : 'group'}
        selectedId={resource?.id ?? null}
        selectedName={resource?.name}
        onChange={onResource}
        errorMessage={error}
        isInvalid={Boolean(error)}
      />
      <AdminCheckbox roleName={role} isSelected={asAdmin} onChange={onAsAdmin} />
    </>
  );
}

/** A Support user may sign in through the identity provider by default. */
function SsoByDefault({ isSelected, onChange }: { isSelected: boolean; onChange: (selected: boolean) => void }) {
  return (
    <Checkbox isSelected={isSelected} onChange={onChange} description={t('users.addRole.ssoHint')}>
      {t('users.addRole.sso')}
    </Checkbox>
  );
}
