import type { Business } from '@medlocker/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiError, messageOf, rpc } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { Form, FormActions } from '../../ui/Form.tsx';
import { Link } from '../../ui/Link.tsx';
import { Page } from '../../ui/Page.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { useBusiness } from './BusinessLayout.tsx';
import { ListField } from './ListField.tsx';

type Fields = {
  name: string;
  email: string;
  line1: string;
  line2: string;
  line3: string;
  postTown: string;
  postcode: string;
  notificationEmails: string[];
  keyholdersMobileNumbers: string[];
};

const blank: Fields = {
  name: '',
  email: '',
  line1: '',
  line2: '',
  line3: '',
  postTown: '',
  postcode: '',
  notificationEmails: [],
  keyholdersMobileNumbers: [],
};

const fieldsOf = (b: Business): Fields => ({
  name: b.name,
  email: b.email,
  line1: b.address.line1 ?? '',
  line2: b.address.line2 ?? '',
  line3: b.address.line3 ?? '',
  postTown: b.address.postTown ?? '',
  postcode: b.address.postcode ?? '',
  notificationEmails: b.notificationEmails,
  keyholdersMobileNumbers: b.keyholdersMobileNumbers,
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
  const [f, setF] = useState<Fields>(business ? fieldsOf(business) : blank);
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
      name: f.name,
      email: f.email,
      address: { line1: f.line1, line2: f.line2, line3: f.line3, postTown: f.postTown, postcode: f.postcode },
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
      <TextField label="Name" name="name" value={f.name} onChange={set('name')} isRequired isDisabled={readOnly} />
      <TextField
        label="Email"
        name="email"
        type="email"
        value={f.email}
        onChange={set('email')}
        isRequired
        isDisabled={readOnly}
      />
      <fieldset className="fieldset">
        <legend className="fieldset__legend">Address</legend>
        <TextField
          label="Address line 1"
          name="address.line1"
          value={f.line1}
          onChange={set('line1')}
          isRequired
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
            isRequired
            isDisabled={readOnly}
          />
          <TextField
            label="Postcode"
            name="address.postcode"
            value={f.postcode}
            onChange={set('postcode')}
            isRequired
            isDisabled={readOnly}
          />
        </div>
      </fieldset>
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
