import type { Business } from '@medlocker/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiError, messageOf, rpc } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { Form, FormActions } from '../../ui/Form.tsx';
import { Link } from '../../ui/Link.tsx';
import { Page } from '../../ui/Page.tsx';
import { useBusiness } from './BusinessLayout.tsx';
import { ContactFields, type ContactFieldValues, contactFieldsOf, contactInputOf } from './ContactFields.tsx';
import { ListField } from './ListField.tsx';

type Fields = ContactFieldValues & { notificationEmails: string[]; keyholdersMobileNumbers: string[] };

const fieldsOf = (b?: Business): Fields => ({
  ...contactFieldsOf(b),
  notificationEmails: b?.notificationEmails ?? [],
  keyholdersMobileNumbers: b?.keyholdersMobileNumbers ?? [],
});

/** SPEC §2 `/businesses/add`. */
export function AddBusiness() {
  return (
    <Page title="Add business">
      <BusinessFormBody />
    </Page>
  );
}

/** SPEC §2 `/businesses/{businessId}/edit` (archived businesses are read-only). */
export function EditBusiness() {
  const { business, reload } = useBusiness();
  return (
    <>
      <h2 className="section-title">Edit</h2>
      <BusinessFormBody key={`${business.id}:${business.updated}`} business={business} onSaved={reload} />
    </>
  );
}

function BusinessFormBody({ business, onSaved }: { business?: Business; onSaved?: () => void }) {
  const navigate = useNavigate();
  const [f, setF] = useState<Fields>(fieldsOf(business));
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);
  const readOnly = Boolean(business?.archived);
  const set =
    <K extends keyof Fields>(key: K) =>
    (value: Fields[K]) =>
      setF((before) => ({ ...before, [key]: value }));

  const submit = async () => {
    setError(undefined);
    setFieldErrors({});
    setPending(true);
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
      navigate(`/businesses/${encodeURIComponent(saved.business.id)}`, {
        state: { notice: business ? 'Business saved.' : 'Business added.' },
      });
    } catch (e) {
      setPending(false);
      if (e instanceof ApiError && e.details.some((d) => d.path)) {
        setFieldErrors(e.fieldErrors);
        const known = Object.keys(e.fieldErrors).some((k) =>
          /^(name|email|address\.|notificationEmails|keyholdersMobileNumbers)/.test(k),
        );
        if (!known) setError(e.formMessage);
      } else {
        setError(messageOf(e));
      }
    }
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
      <ContactFields values={f} onChange={set} required isDisabled={readOnly} />
      <ListField
        legend="Keyholder mobiles"
        itemLabel="Mobile number"
        name="keyholdersMobileNumbers"
        type="tel"
        description="UK mobiles texted when a machine needs a keyholder."
        values={f.keyholdersMobileNumbers}
        onChange={set('keyholdersMobileNumbers')}
        errorMessage={fieldErrors.keyholdersMobileNumbers}
        isDisabled={readOnly}
      />
      <ListField
        legend="Notification emails"
        itemLabel="Email address"
        name="notificationEmails"
        type="email"
        description="Addresses that receive the business's notifications."
        values={f.notificationEmails}
        onChange={set('notificationEmails')}
        errorMessage={fieldErrors.notificationEmails}
        isDisabled={readOnly}
      />
      <FormActions>
        <Link href={business ? `/businesses/${encodeURIComponent(business.id)}` : '/businesses'} variant="button">
          Cancel
        </Link>
        <Button type="submit" variant="primary" isPending={pending} isDisabled={readOnly}>
          {business ? 'Save' : 'Add business'}
        </Button>
      </FormActions>
    </Form>
  );
}
