import type { Business } from '@medlocker/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiError, rpc } from '../../api/client.ts';
import { consolePaths } from '../../paths.ts';
import { Page } from '../../ui/Page.tsx';
import { PageForm, useSaveState } from '../../ui/PageForm.tsx';
import { useBusiness } from './BusinessLayout.tsx';
import { ContactFields, type ContactFieldValues, contactFieldsOf, contactInputOf } from './ContactFields.tsx';
import { EditSection } from './entity-parts.tsx';
import { t } from './i18n/index.ts';
import { ListField } from './ListField.tsx';

type Fields = ContactFieldValues & { notificationEmails: string[]; keyholdersMobileNumbers: string[] };

const fieldsOf = (b?: Business): Fields => ({
  ...contactFieldsOf(b),
  notificationEmails: b?.notificationEmails ?? [],
  keyholdersMobileNumbers: b?.keyholdersMobileNumbers ?? [],
});

/** The business's two lists: who is texted about its machines, and where its notifications go. */
const listFields = () =>
  [
    {
      legend: t('businesses.form.keyholders'),
      itemLabel: t('businesses.form.keyholder'),
      name: 'keyholdersMobileNumbers',
      type: 'tel',
      description: t('businesses.form.keyholdersHelp'),
    },
    {
      legend: t('businesses.form.notificationEmails'),
      itemLabel: t('businesses.form.notificationEmail'),
      name: 'notificationEmails',
      type: 'email',
      description: t('businesses.form.notificationEmailsHelp'),
    },
  ] as const;

/** SPEC §2 `/businesses/add`. */
export const AddBusiness = () => (
  <Page title={t('businesses.form.addTitle')}>
    <BusinessFormBody />
  </Page>
);

/** SPEC §2 `/businesses/{businessId}/edit` (archived businesses are read-only). */
export function EditBusiness() {
  const { business, reload } = useBusiness();
  return (
    <EditSection>
      <BusinessFormBody key={`${business.id}:${business.updated}`} business={business} onSaved={reload} />
    </EditSection>
  );
}

/** A server message about a field this form shows; any other also goes above the form. */
const shownField = /^(name|email|address\.|notificationEmails|keyholdersMobileNumbers)/;

function BusinessFormBody({ business, onSaved }: { business?: Business; onSaved?: () => void }) {
  const navigate = useNavigate();
  const [f, setF] = useState<Fields>(fieldsOf(business));
  const state = useSaveState();
  const readOnly = Boolean(business?.archived);
  const set =
    <K extends keyof Fields>(key: K) =>
    (value: Fields[K]) =>
      setF((before) => ({ ...before, [key]: value }));

  const save = async () => {
    state.start();
    const input = {
      ...contactInputOf(f),
      // Empty rows are left out: an Add pressed by mistake is not an invalid item.
      notificationEmails: f.notificationEmails.map((s) => s.trim()).filter(Boolean),
      keyholdersMobileNumbers: f.keyholdersMobileNumbers.map((s) => s.trim()).filter(Boolean),
    };
    setF((before) => ({
      ...before,
      notificationEmails: input.notificationEmails,
      keyholdersMobileNumbers: input.keyholdersMobileNumbers,
    }));
    try {
      const saved = business
        ? await rpc('businesses', 'updateBusiness', { ...input, id: business.id })
        : await rpc('businesses', 'createBusiness', input);
      onSaved?.();
      navigate(consolePaths.business(saved.business.id), {
        state: { notice: business ? t('businesses.form.saved') : t('businesses.form.added') },
      });
    } catch (e) {
      state.fail(e);
      if (e instanceof ApiError && !Object.keys(e.fieldErrors).some((k) => shownField.test(k))) {
        state.setError(e.formMessage);
      }
    }
  };

  return (
    <PageForm
      state={state}
      save={save}
      cancelHref={business ? consolePaths.business(business.id) : consolePaths.businesses}
      submitLabel={business ? t('businesses.form.save') : t('businesses.form.add')}
      isDisabled={readOnly}
    >
      <ContactFields values={f} onChange={set} required isDisabled={readOnly} />
      {listFields().map((field) => (
        <ListField
          key={field.name}
          {...field}
          values={f[field.name]}
          onChange={set(field.name)}
          errorMessage={state.fieldErrors[field.name]}
          isDisabled={readOnly}
        />
      ))}
    </PageForm>
  );
}
