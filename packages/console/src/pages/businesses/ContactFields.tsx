import type { Address } from '@medlocker/core';
import { Fieldset } from '../../ui/Fieldset.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { t } from './i18n/index.ts';

/** The name, email and address a business or a group is edited with, as the form holds them. */
export type ContactFieldValues = {
  name: string;
  email: string;
  line1: string;
  line2: string;
  line3: string;
  postTown: string;
  postcode: string;
};

/** The form's values of a business or group (blank when adding one). */
export const contactFieldsOf = (entity?: {
  name: string;
  email: string | null;
  address: Address;
}): ContactFieldValues => ({
  name: entity?.name ?? '',
  email: entity?.email ?? '',
  line1: entity?.address.line1 ?? '',
  line2: entity?.address.line2 ?? '',
  line3: entity?.address.line3 ?? '',
  postTown: entity?.address.postTown ?? '',
  postcode: entity?.address.postcode ?? '',
});

/** The name, email and address as the api takes them. */
export const contactInputOf = (f: ContactFieldValues) => ({
  name: f.name,
  email: f.email,
  address: { line1: f.line1, line2: f.line2, line3: f.line3, postTown: f.postTown, postcode: f.postcode },
});

type AddressField = {
  key: 'line1' | 'line2' | 'line3' | 'postTown' | 'postcode';
  requiredWhen: boolean;
};
const addressLines: AddressField[] = [
  { key: 'line1', requiredWhen: true },
  { key: 'line2', requiredWhen: false },
  { key: 'line3', requiredWhen: false },
];
const addressPlace: AddressField[] = [
  { key: 'postTown', requiredWhen: true },
  { key: 'postcode', requiredWhen: true },
];

/**
 * Name, Email and the Address fieldset, named as the api's fields so its errors land beside them.
 * `required`: email, first address line, post town and postcode must be filled (a business's are).
 */
export function ContactFields({
  values: f,
  onChange,
  required,
  isDisabled,
}: {
  values: ContactFieldValues;
  onChange: (key: keyof ContactFieldValues) => (value: string) => void;
  required: boolean;
  isDisabled: boolean;
}) {
  const field = ({ key, requiredWhen }: AddressField) => (
    <TextField
      key={key}
      label={t(`businesses.contact.${key}` as const)}
      name={`address.${key}`}
      value={f[key]}
      onChange={onChange(key)}
      isRequired={required && requiredWhen}
      isDisabled={isDisabled}
    />
  );
  return (
    <>
      <TextField
        label={t('businesses.contact.name')}
        name="name"
        value={f.name}
        onChange={onChange('name')}
        isRequired
        isDisabled={isDisabled}
      />
      <TextField
        label={t('businesses.contact.email')}
        name="email"
        type="email"
        value={f.email}
        onChange={onChange('email')}
        isRequired={required}
        isDisabled={isDisabled}
      />
      <Fieldset legend={t('businesses.contact.address')}>
        {addressLines.map(field)}
        <div className="fieldset__row">{addressPlace.map(field)}</div>
      </Fieldset>
    </>
  );
}
