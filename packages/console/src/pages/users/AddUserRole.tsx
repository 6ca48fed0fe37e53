import type { AddableRoleName } from '@medlocker/core';
import { useState } from 'react';
import { Navigate, useLocation, useNavigate, useParams } from 'react-router';
import { ApiError, messageOf, rpc } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { Checkbox } from '../../ui/Checkbox.tsx';
import { Form, FormActions } from '../../ui/Form.tsx';
import { Link } from '../../ui/Link.tsx';
import { Page } from '../../ui/Page.tsx';
import { Select } from '../../ui/Select.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { ResourcePicker } from './ResourcePicker.tsx';

/** The roles support staff can give (SPEC §6), as they appear in the URL and on screen. */
const roles: Record<string, AddableRoleName> = {
  support: 'Support',
  developer: 'Developer',
  business: 'Business',
  group: 'Group',
};

/** What a user page passes when its 'Add role' button leads here. */
export type AddUserRoleState = { email?: string; userId?: string; resourceName?: string } | null;

/** SPEC §2/§6 `/users/add/{role}/{resource?}`: give a role to a person by email (new or existing). */
export function AddUserRole() {
  const params = useParams();
  const navigate = useNavigate();
  const location = useLocation();
  const state = location.state as AddUserRoleState;
  const roleKey = (params.role ?? '').toLowerCase();
  const role = roles[roleKey];

  const [email, setEmail] = useState(state?.email ?? '');
  const [givenName, setGivenName] = useState('');
  const [familyName, setFamilyName] = useState('');
  const [resource, setResource] = useState<{ id: string; name: string } | null>(
    params.resource ? { id: params.resource, name: state?.resourceName ?? '' } : null,
  );
  const [asAdmin, setAsAdmin] = useState(false);
  const [ssoByDefault, setSsoByDefault] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);

  if (!role) return <Navigate to="/users/add/support" replace />;
  const scoped = role === 'Business' || role === 'Group';
  const existingUser = Boolean(state?.userId);

  const submit = async () => {
    setError(undefined);
    setFieldErrors({});
    // SPEC §5: a Business or Group role without its resource is not sent at all.
    if (scoped && !resource) {
      setFieldErrors({ resourceId: 'Field is required' });
      return;
    }
    setPending(true);
    try {
      const resourceType = role === 'Business' ? 'business' : role === 'Group' ? 'group' : null;
      const answer = await rpc('auth', 'addRoles', {
        addIdpByDefault: role === 'Support' && ssoByDefault,
        email,
        frontEnd: role === 'Support' ? 'support' : 'pharmacy',
        resourceId: scoped ? (resource?.id ?? null) : null,
        resourceType,
        roles: [
          {
            name: role,
            resource: scoped ? (resource?.id ?? null) : null,
            accessLevels: scoped && asAdmin ? ['Admin'] : [],
          },
        ],
      });
      if (answer.created && givenName.trim() && familyName.trim()) {
        await rpc('users', 'updateUser', { id: answer.userId, givenName, familyName });
      }
      navigate(`/users/${encodeURIComponent(answer.userId)}`, { state: { notice: `${role} role added.` } });
    } catch (e) {
      setPending(false);
      if (e instanceof ApiError && e.details.some((d) => d.path)) {
        const errors = e.fieldErrors;
        // The role's own resource reports on the picker.
        for (const [path, message] of Object.entries(errors)) {
          if (path.startsWith('roles.') && path.endsWith('.resource')) errors.resourceId = message;
        }
        setFieldErrors(errors);
        if (!Object.keys(errors).some((k) => ['email', 'givenName', 'familyName', 'resourceId'].includes(k))) {
          setError(e.formMessage);
        }
      } else {
        setError(messageOf(e));
      }
    }
  };

  return (
    <Page
      title={existingUser ? 'Add role' : 'Add user'}
      lead="Give a role to someone by their email address. Someone new gets an email with a link to choose a password."
    >
      <Form
        className="form--page"
        error={error}
        validationErrors={fieldErrors}
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Select
          label="Role"
          name="role"
          selectedKey={roleKey}
          onSelectionChange={(key) => {
            if (key !== null && key !== roleKey) {
              setResource(null);
              setFieldErrors({});
              navigate(`/users/add/${String(key)}`, { replace: true, state });
            }
          }}
          options={Object.entries(roles).map(([id, label]) => ({ id, label }))}
        />
        <TextField
          label="Email address"
          name="email"
          type="email"
          autoComplete="off"
          value={email}
          onChange={setEmail}
          isRequired
          isReadOnly={existingUser}
          autoFocus={!existingUser}
        />
        {!existingUser && (
          <fieldset className="fieldset">
            <legend className="fieldset__legend">New user's name (optional)</legend>
            <p className="field__description">Used only when nobody has this email address yet.</p>
            <div className="fieldset__row">
              <TextField
                label="First name"
                name="givenName"
                value={givenName}
                onChange={setGivenName}
                autoComplete="off"
              />
              <TextField
                label="Surname"
                name="familyName"
                value={familyName}
                onChange={setFamilyName}
                autoComplete="off"
              />
            </div>
          </fieldset>
        )}
        {scoped && (
          <>
            <ResourcePicker
              key={role}
              kind={role === 'Business' ? 'business' : 'group'}
              selectedId={resource?.id ?? null}
              selectedName={resource?.name}
              onChange={(picked) => {
                setResource(picked);
                setFieldErrors(({ resourceId: _dropped, ...rest }) => rest);
              }}
              errorMessage={fieldErrors.resourceId}
              isInvalid={Boolean(fieldErrors.resourceId)}
            />
            <Checkbox isSelected={asAdmin} onChange={setAsAdmin}>
              Add as a {role} administrator
            </Checkbox>
          </>
        )}
        {role === 'Support' && (
          <Checkbox
            isSelected={ssoByDefault}
            onChange={setSsoByDefault}
            description="When an identity provider is set up, the user signs in through it instead of a password."
          >
            Use single sign-on by default
          </Checkbox>
        )}
        <FormActions>
          <Link href={state?.userId ? `/users/${encodeURIComponent(state.userId)}` : '/users'} variant="button">
            Cancel
          </Link>
          <Button type="submit" variant="primary" isPending={pending}>
            Add role
          </Button>
        </FormActions>
      </Form>
    </Page>
  );
}
