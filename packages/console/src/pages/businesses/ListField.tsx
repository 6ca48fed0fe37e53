import { Button } from '../../ui/Button.tsx';
import { Fieldset } from '../../ui/Fieldset.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { t } from './i18n/index.ts';

export type ListFieldProps = {
  /** The legend, e.g. 'Keyholder mobiles'. */
  legend: string;
  /** The label of one item, e.g. 'Mobile number'. */
  itemLabel: string;
  /** The field path the server reports errors under ('keyholdersMobileNumbers' → '.0', '.1'…). */
  name: string;
  values: string[];
  onChange: (values: string[]) => void;
  type?: 'email' | 'tel' | 'text';
  description?: string;
  /** A message about the list as a whole. */
  errorMessage?: string;
  isDisabled?: boolean;
};

/**
 * A list of text values edited one per field, each with Remove, and an Add button. Fields are named
 * `{name}.{index}`, so the server's per-item messages ('Item with value X already exists') land
 * beside the item they are about.
 */
export function ListField({
  legend,
  itemLabel,
  name,
  values,
  onChange,
  type = 'text',
  description,
  errorMessage,
  isDisabled,
}: ListFieldProps) {
  return (
    <Fieldset legend={legend} description={description} className="list-field">
      {errorMessage && (
        <p className="field__error" role="alert">
          {errorMessage}
        </p>
      )}
      {values.map((value, index) => (
        // Items have no identity beyond their place in the list.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <div className="list-field__item" key={index}>
          <TextField
            label={t('businesses.listField.item', { item: itemLabel, number: index + 1 })}
            name={`${name}.${index}`}
            type={type}
            value={value}
            onChange={(v) => onChange(values.map((old, i) => (i === index ? v : old)))}
            isDisabled={isDisabled}
          />
          <Button
            variant="quiet"
            aria-label={t('businesses.listField.remove', { item: itemLabel.toLowerCase(), number: index + 1 })}
            onPress={() => onChange(values.filter((_, i) => i !== index))}
            isDisabled={isDisabled}
          >
            {t('businesses.listField.removeButton')}
          </Button>
        </div>
      ))}
      <div>
        <Button onPress={() => onChange([...values, ''])} isDisabled={isDisabled}>
          {t('businesses.listField.add', { item: itemLabel.toLowerCase() })}
        </Button>
      </div>
    </Fieldset>
  );
}
