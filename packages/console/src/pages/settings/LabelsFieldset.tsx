import { type LabelSize, labelSizeNames, labelSizes } from '@medlocker/core';
import { Fieldset } from '../../ui/Fieldset.tsx';
import { Select } from '../../ui/Select.tsx';
import type { FeatureFieldsetProps } from './fieldset-props.ts';
import { t } from './i18n/index.ts';

/** The bag labels' size: the label printer the pharmacy prints them on (docs/decisions/orders.md, Bag labels). */
export function LabelsFieldset({ s, update, ro }: FeatureFieldsetProps) {
  return (
    <Fieldset legend={t('businessSettings.labels.legend')}>
      <Select
        label={t('businessSettings.labels.size')}
        name="labels.size"
        selectedKey={s.labels.size}
        onSelectionChange={(key) => key !== null && update({ labels: { size: key as LabelSize } })}
        options={labelSizes.map((size) => ({ id: size, label: labelSizeNames[size] }))}
        description={t('businessSettings.labels.sizeHint')}
        isDisabled={ro}
      />
    </Fieldset>
  );
}
