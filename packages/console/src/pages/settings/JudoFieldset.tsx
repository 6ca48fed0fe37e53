import type { JudoSettings } from '@medlocker/core';
import { Checkbox } from '../../ui/Checkbox.tsx';
import { SecretField } from '../../ui/SecretField.tsx';
import { Switch } from '../../ui/Switch.tsx';
import { TextField } from '../../ui/TextField.tsx';

/** The Judopay account of a business's payment settings (shown when Judopay is the provider). */
export function JudoFieldset({
  judo,
  update,
  ro,
}: {
  judo: JudoSettings;
  update: (patch: Partial<JudoSettings>) => void;
  ro: boolean;
}) {
  return (
    <fieldset className="fieldset">
      <legend className="fieldset__legend">Judopay account</legend>
      <TextField
        label="Judo ID"
        name="judo.id"
        value={judo.id}
        onChange={(v) => update({ id: v })}
        isRequired
        isDisabled={ro}
      />
      {(['token', 'secret'] as const).map((key) => (
        <SecretField
          key={key}
          label={`API ${key}`}
          name={`judo.${key}`}
          value={judo[key]}
          onChange={(v) => update({ [key]: v })}
          description={`At least 8 characters. A saved ${key} shows masked; leave it to keep it.`}
          isRequired
          isDisabled={ro}
        />
      ))}
      <Switch isSelected={judo.sandbox} onChange={(v) => update({ sandbox: v })} isDisabled={ro}>
        Sandbox (test payments)
      </Switch>
      <Checkbox isSelected={judo.showVisa} onChange={(v) => update({ showVisa: v })} isDisabled={ro}>
        Show Visa
      </Checkbox>
      <Checkbox isSelected={judo.showAmex} onChange={(v) => update({ showAmex: v })} isDisabled={ro}>
        Show Amex
      </Checkbox>
      <Checkbox isSelected={judo.showMastercard} onChange={(v) => update({ showMastercard: v })} isDisabled={ro}>
        Show Mastercard
      </Checkbox>
    </fieldset>
  );
}
