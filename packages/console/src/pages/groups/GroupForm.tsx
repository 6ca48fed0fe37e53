import type { Group } from '@medlocker/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiError, messageOf, rpc } from '../../api/client.ts';
import { consolePaths } from '../../paths.ts';
import { Page } from '../../ui/Page.tsx';
import { PageForm, useSaveState } from '../../ui/PageForm.tsx';
import {
  ContactFields,
  type ContactFieldValues,
  contactFieldsOf,
  contactInputOf,
} from '../businesses/ContactFields.tsx';
import { EditSection } from '../businesses/entity-parts.tsx';
import { useGroup } from './GroupLayout.tsx';
import { t } from './i18n/index.ts';
import { type LogoDraft, LogoField, logoDraftOf } from './LogoField.tsx';

/** SPEC §2 `/groups/add`. */
export const AddGroup = () => (
  <Page title={t('groups.form.addTitle')}>
    <GroupFormBody />
  </Page>
);

/** SPEC §2 `/groups/{groupId}/edit`: the group's fields and its logo (SPEC §4 logo save). */
export function EditGroup() {
  const { group, reload } = useGroup();
  return (
    <EditSection>
      <GroupFormBody key={`${group.id}:${group.updated}`} group={group} onSaved={reload} />
    </EditSection>
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
  const [f, setF] = useState(contactFieldsOf(group));
  const [logo, setLogo] = useState<LogoDraft>(logoDraftOf(group?.logo ?? null));
  const [logoErrors, setLogoErrors] = useState<string[]>([]);
  const state = useSaveState();
  const readOnly = Boolean(group?.archived);
  const set = (key: keyof ContactFieldValues) => (value: string) => setF((before) => ({ ...before, [key]: value }));

  const save = async () => {
    state.start();
    const input = contactInputOf(f);
    let saved: Group;
    try {
      saved = group
        ? (await rpc('groups', 'updateGroup', { ...input, id: group.id, parentId: group.parentId })).group
        : (await rpc('groups', 'createGroup', input)).group;
    } catch (e) {
      state.fail(e);
      return;
    }
    if (group) {
      try {
        await saveLogo(group.id, logo);
      } catch (e) {
        state.setPending(false);
        // The server's refusal ('Only the following extensions are accepted: …') beside the logo.
        setLogoErrors(e instanceof ApiError && e.details.length > 0 ? e.details.map((d) => d.message) : [messageOf(e)]);
        return;
      }
    }
    onSaved?.();
    navigate(consolePaths.group(saved.id), {
      state: { notice: group ? t('groups.form.saved') : t('groups.form.added') },
    });
  };

  return (
    <PageForm
      state={state}
      save={save}
      cancelHref={group ? consolePaths.group(group.id) : consolePaths.groups}
      submitLabel={group ? t('groups.form.save') : t('groups.form.add')}
      isDisabled={readOnly}
    >
      <ContactFields values={f} onChange={set} required={false} isDisabled={readOnly} />
      {group && (
        <LogoField draft={logo} onChange={setLogo} errors={logoErrors} onErrors={setLogoErrors} isDisabled={readOnly} />
      )}
    </PageForm>
  );
}
