import { type LabelSize, labelSizeNames, labelSizes } from '@medlocker/core';
import { Select } from '../../ui/Select.tsx';
import type { FeatureFieldsetProps } from './feature-fieldsets.tsx';

/** The bag labels' size: the label printer the pharmacy prints them on (docs/decisions/orders.md, Bag labels). */
export function LabelsFieldset({ s, update, ro }: FeatureFieldsetProps) {
  return (
    <fieldset className="fieldset">
      <legend className="fieldset__legend">Bag labels</legend>
      <Select
        label="Label size"
        name="labels.size"
        selectedKey={s.labels.size}
        onSelectionChange={(key) => key !== null && update({ labels: { size: key as LabelSize } })}
        options={labelSizes.map((size) => ({ id: size, label: labelSizeNames[size] }))}
        description="The printer's labels: each order's label prints at this size, on screen and as a PDF."
        isDisabled={ro}
      />
    </fieldset>
  );
}
