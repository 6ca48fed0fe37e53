import { Fieldset } from '../../ui/Fieldset.tsx';
import { Switch } from '../../ui/Switch.tsx';
import type { FeatureFieldsetProps } from './fieldset-props.ts';
import { t } from './i18n/index.ts';

/** Whether the business's lockers raise temperature alerts. */
export function TemperatureFieldset({ s, update, ro }: FeatureFieldsetProps) {
  return (
    <Fieldset legend={t('businessSettings.temperature.legend')}>
      <Switch
        isSelected={s.temperatureSettings.enableTemperatureAlerts}
        onChange={(v) => update({ temperatureSettings: { enableTemperatureAlerts: v } })}
        isDisabled={ro}
      >
        {t('businessSettings.temperature.alerts')}
      </Switch>
    </Fieldset>
  );
}
