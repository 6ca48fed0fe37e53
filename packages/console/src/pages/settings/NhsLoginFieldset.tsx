import type { BusinessFeatureSettings } from '@medlocker/core';
import { Switch } from '../../ui/Switch.tsx';

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
    unavailable ??
    (nhsNumber
      ? 'Patients can prove who they are with NHS login: their verified NHS number must be the patient ID, and their date of birth the one on record.'
      : 'NHS login matches patients by NHS number: first check the patient ID is a valid NHS number.');
  return (
    <fieldset className="fieldset">
      <legend className="fieldset__legend">NHS login</legend>
      <Switch
        isSelected={s.nhsLogin.enabled}
        onChange={(v) => update({ nhsLogin: { enabled: v } })}
        isDisabled={ro || (!s.nhsLogin.enabled && (unavailable !== null || !nhsNumber))}
        description={description}
      >
        Patients can continue with NHS login
      </Switch>
    </fieldset>
  );
}
