import { Fieldset } from '../../ui/Fieldset.tsx';
import { Switch } from '../../ui/Switch.tsx';
import type { FeatureFieldsetProps } from './fieldset-props.ts';
import { t } from './i18n/index.ts';

/** Whether the business's users must sign in with a second factor (docs/SECURITY.md "Second factor"). */
export function SignInFieldset({ s, update, ro }: FeatureFieldsetProps) {
  return (
    <Fieldset legend={t('businessSettings.signIn.legend')}>
      <Switch isSelected={s.secondFactorRequired} onChange={(v) => update({ secondFactorRequired: v })} isDisabled={ro}>
        {t('businessSettings.signIn.secondFactor')}
      </Switch>
    </Fieldset>
  );
}
