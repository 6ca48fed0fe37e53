import type { BusinessFeatureSettings } from '@medlocker/core';
import { Fieldset } from '../../ui/Fieldset.tsx';
import { Switch } from '../../ui/Switch.tsx';
import { t } from './i18n/index.ts';

/**
 * NHS login for the business's patients (docs/decisions/patients.md, "NHS login"): it matches patients
 * by their verified NHS number, so it needs the patient ID checked as an NHS number, and the server's
 * NHS_LOGIN_* configuration; without either the switch cannot be turned on and says why.
 */
export function NhsLoginFieldset({
  s,
  update,
  ro,
  unavailable,
}: {
  s: BusinessFeatureSettings;
  update: (patch: Partial<BusinessFeatureSettings>) => void;
  ro: boolean;
  unavailable: string | null;
}) {
  const nhsNumber = s.displayIdField.validateNhsNumber;
  const description =
    unavailable ?? (nhsNumber ? t('businessSettings.nhsLogin.hint') : t('businessSettings.nhsLogin.needsNhsNumber'));
  return (
    <Fieldset legend={t('businessSettings.nhsLogin.legend')}>
      <Switch
        isSelected={s.nhsLogin.enabled}
        onChange={(v) => update({ nhsLogin: { enabled: v } })}
        isDisabled={ro || (!s.nhsLogin.enabled && (unavailable !== null || !nhsNumber))}
        description={description}
      >
        {t('businessSettings.nhsLogin.enabled')}
      </Switch>
    </Fieldset>
  );
}
