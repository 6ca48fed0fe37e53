import type { JudoSettings } from '@medlocker/core';
import { Checkbox } from '../../ui/Checkbox.tsx';
import { Fieldset } from '../../ui/Fieldset.tsx';
import { SecretField } from '../../ui/SecretField.tsx';
import { Switch } from '../../ui/Switch.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { t } from './i18n/index.ts';

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
    <Fieldset legend={t('businessSettings.judo.legend')}>
      <TextField
        label={t('businessSettings.judo.id')}
        name="judo.id"
        value={judo.id}
        onChange={(v) => update({ id: v })}
        isRequired
        isDisabled={ro}
      />
      {(['token', 'secret'] as const).map((key) => (
        <SecretField
          key={key}
          label={t(`businessSettings.judo.${key}`)}
          name={`judo.${key}`}
          value={judo[key]}
          onChange={(v) => update({ [key]: v })}
          description={t(`businessSettings.judo.${key}Hint`)}
          isRequired
          isDisabled={ro}
        />
      ))}
      <Switch isSelected={judo.sandbox} onChange={(v) => update({ sandbox: v })} isDisabled={ro}>
        {t('businessSettings.judo.sandbox')}
      </Switch>
      {(['showVisa', 'showAmex', 'showMastercard'] as const).map((key) => (
        <Checkbox key={key} isSelected={judo[key]} onChange={(v) => update({ [key]: v })} isDisabled={ro}>
          {t(`businessSettings.judo.${key}`)}
        </Checkbox>
      ))}
    </Fieldset>
  );
}
