import { defaultAlarmEscalationMinutes, maxAlarmEscalationMinutes } from '@medlocker/core';
import { Fieldset } from '../../ui/Fieldset.tsx';
import { NumberField } from '../../ui/NumberField.tsx';
import type { FeatureFieldsetProps } from './fieldset-props.ts';
import { t } from './i18n/index.ts';

/** How long a critical alarm waits for someone to acknowledge it before each escalation step. */
export function AlarmsFieldset({ s, update, ro }: FeatureFieldsetProps) {
  return (
    <Fieldset legend={t('businessSettings.alarms.legend')}>
      <NumberField
        label={t('businessSettings.alarms.escalation')}
        name="alarmEscalationMinutes"
        minValue={1}
        maxValue={maxAlarmEscalationMinutes}
        step={1}
        value={s.alarmEscalationMinutes}
        onChange={(v) => update({ alarmEscalationMinutes: Number.isNaN(v) ? defaultAlarmEscalationMinutes : v })}
        isDisabled={ro}
      />
    </Fieldset>
  );
}
