import type { Group } from '@medlocker/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiError, messageOf, rpc } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { Form, FormActions } from '../../ui/Form.tsx';
import { Link } from '../../ui/Link.tsx';
import { Page } from '../../ui/Page.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { useGroup } from './GroupLayout.tsx';
import { type LogoDraft, LogoField, logoDraftOf } from './LogoField.tsx';

type Fields = {
  name: string;
  email: string;
  line1: string;
  line2: string;
  line3: string;
  postTown: string;
  postcode: string;
};

const fieldsOf = (g?: Group): Fields => ({
  name: g?.name ?? '',
  email: g?.email ?? '',
  line1: g?.address.line1 ?? '',
  line2: g?.address.line2 ?? '',
  line3: g?.address.line3 ?? '',
  postTown: g?.address.postTown ?? '',
  postcode: g?.address.postcode ?? '',
});

/** SPEC §2 `/groups/add`. */
export function AddGroup() {
  return (
    <Page title="Add group">
      <GroupFormBody />
    </Page>
  );
}

/** SPEC §2 `/groups/{groupId}/edit`: the group's fields and its logo (SPEC §4 logo save). */
export function EditGroup() {
  const { group, reload } = useGroup();
  return (
    <>
      <h2 className="section-title">Edit</h2>
      <GroupFormBody key={`${group.id}:${group.updated}`} group={group} onSaved={reload} />
    </>
  );
}

/**
 * SPEC §4 group logo save: when the logo changed, upload the new image (or delete the old one), then
 * set the logo's path and background colour. Answers the message to show if the logo was refused.
 */
async function saveLogo(groupId: string, draft: LogoDraft): Promise<void> {
  const logoChanged = draft.chosen !== null || draft.removed;
  const colourChanged =
    draft.backgroundColor.toUpperCase() !== (draft.saved?.backgroundColor ?? '#FFFFFF').toUpperCase();
  if (!logoChanged && !colourChanged) return;
  let path = draft.saved?.path ?? null;
  if (draft.chosen) {
    path = (await rpc('groups', 'uploadLogo', { entityId: groupId, dataUrl: draft.chosen.dataUrl })).path;
  } else if (draft.removed && draft.saved?.path) {
    await rpc('groups', 'deleteLogo', { key: draft.saved.path });
    path = null;
  }
  await rpc('groups', 'updateLogo', { id: groupId, path, backgroundColor: draft.backgroundColor });
}

function GroupFormBody({ group, onSaved }: { group?: Group; onSaved?: () => void }) {
  const navigate = useNavigate();
  const [f, setF] = useState(fieldsOf(group));
  const [logo, setLogo] = useState<LogoDraft>(logoDraftOf(group?.logo ?? null));
  const [logoErrors, setLogoErrors] = useState<string[]>([]);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);
  const readOnly = Boolean(group?.archived);
  const set = (key: keyof Fields) => (value: string) => setF((before) => ({ ...before, [key]: value }));

  const submit = async () => {
    setError(undefined);
    setFieldErrors({});
    setPending(true);
    const input = {
      name: f.name,
      email: f.email,
      address: { line1: f.line1, line2: f.line2, line3: f.line3, postTown: f.postTown, postcode: f.postcode },
    };
    let saved: Group;
    try {
      saved = group
        ? (await rpc('groups', 'updateGroup', { ...input, id: group.id, parentId: group.parentId })).group
        : (await rpc('groups', 'createGroup', input)).group;
    } catch (e) {
      setPending(false);
      if (e instanceof ApiError && e.details.some((d) => d.path)) setFieldErrors(e.fieldErrors);
      else setError(messageOf(e));
      return;
    }
    if (group) {
      try {
        await saveLogo(group.id, logo);
      } catch (e) {
        setPending(false);
        // The server's refusal ('Only the following extensions are accepted: …') beside the logo.
        setLogoErrors(e instanceof ApiError && e.details.length > 0 ? e.details.map((d) => d.message) : [messageOf(e)]);
        return;
      }
    }
    onSaved?.();
    navigate(`/groups/${encodeURIComponent(saved.id)}`, { state: { notice: group ? 'Group saved.' : 'Group added.' } });
  };

  return (
    <Form
      className="form--page"
      error={error}
      validationErrors={fieldErrors}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <TextField label="Name" name="name" value={f.name} onChange={set('name')} isRequired isDisabled={readOnly} />
      <TextField
        label="Email"
        name="email"
        type="email"
        value={f.email}
        onChange={set('email')}
        isDisabled={readOnly}
      />
      <fieldset className="fieldset">
        <legend className="fieldset__legend">Address</legend>
        <TextField
          label="Address line 1"
          name="address.line1"
          value={f.line1}
          onChange={set('line1')}
          isDisabled={readOnly}
        />
        <TextField
          label="Address line 2"
          name="address.line2"
          value={f.line2}
          onChange={set('line2')}
          isDisabled={readOnly}
        />
        <TextField
          label="Address line 3"
          name="address.line3"
          value={f.line3}
          onChange={set('line3')}
          isDisabled={readOnly}
        />
        <div className="fieldset__row">
          <TextField
            label="Post town"
            name="address.postTown"
            value={f.postTown}
            onChange={set('postTown')}
            isDisabled={readOnly}
          />
          <TextField
            label="Postcode"
            name="address.postcode"
            value={f.postcode}
            onChange={set('postcode')}
            isDisabled={readOnly}
          />
        </div>
      </fieldset>
      {group && (
        <LogoField draft={logo} onChange={setLogo} errors={logoErrors} onErrors={setLogoErrors} isDisabled={readOnly} />
      )}
      <FormActions>
        <Link href={group ? `/groups/${encodeURIComponent(group.id)}` : '/groups'} variant="button">
          Cancel
        </Link>
        <Button type="submit" variant="primary" isPending={pending} isDisabled={readOnly}>
          {group ? 'Save' : 'Add group'}
        </Button>
      </FormActions>
    </Form>
  );
}
