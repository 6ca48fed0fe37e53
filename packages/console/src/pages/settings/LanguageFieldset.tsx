import { type PatientLanguage, patientLanguages } from '@medlocker/core';
import { t } from '../../i18n/index.ts';
import { Fieldset } from '../../ui/Fieldset.tsx';
import { Select } from '../../ui/Select.tsx';
import type { FeatureFieldsetProps } from './fieldset-props.ts';

/** The language the business's patients get until they choose their own: English, Welsh, or both (Welsh first). */
export function LanguageFieldset({ s, update, ro }: FeatureFieldsetProps) {
  return (
    <Fieldset legend={t('settings.languageLegend')}>
      <Select
        label={t('settings.patientLanguage')}
        name="patientLanguage"
        selectedKey={s.patientLanguage}
        onSelectionChange={(key) => key !== null && update({ patientLanguage: key as PatientLanguage })}
        options={patientLanguages.map((l) => ({ id: l, label: t(`language.${l}`) }))}
        description={t('settings.patientLanguageHint')}
        isDisabled={ro}
      />
    </Fieldset>
  );
}
