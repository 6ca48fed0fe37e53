import {
  Charge,
  defaultInactiveAccountDays,
  formatPence,
  isArkErrors,
  maxInactiveAccountDays,
  penceToAmountText,
} from '@medlocker/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { rpc } from '../../api/client.ts';
import { useQuery } from '../../api/queries.ts';
import { consolePaths } from '../../paths.ts';
import { PageForm, useSaveState } from '../../ui/PageForm.tsx';
import { EditSettings, SavedSettings } from '../../ui/SavedSettings.tsx';
import { Switch } from '../../ui/Switch.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { ProductRetention } from '../retention/ProductRetention.tsx';

const useGlobalSettings = () =>
  useQuery(
    (signal) => rpc('globalSettings', 'getGlobalSettings', {}, { signal }),
    ['globalSettings', 'getGlobalSettings'],
  );

/**
 * SPEC §2 `/globalSettings`: settings for every business, the NHS prescription charge; and after how
 * many days without a sign-in a staff account is disabled (issue 37 §2).
 */
export function GlobalSettings() {
  return (
    <SavedSettings
      title="Global Settings"
      lead="Settings that apply to every business."
      editHref={`${consolePaths.globalSettings}/edit`}
      query={useGlobalSettings()}
    >
      {({ settings }) => (
        <>
          <dl className="details">
            <div className="details__item">
              <dt>NHS prescription charge</dt>
              <dd>
                {settings?.nhsPrescriptionCharge === undefined
                  ? 'Not set'
                  : formatPence(settings.nhsPrescriptionCharge)}
              </dd>
            </div>
            <div className="details__item">
              <dt>Disable accounts not used for</dt>
              <dd>{settings?.inactiveAccountDays ?? defaultInactiveAccountDays} days</dd>
            </div>
            <div className="details__item">
              <dt>Support staff need a second factor</dt>
              <dd>{(settings?.supportSecondFactorRequired ?? true) ? 'Yes' : 'No'}</dd>
            </div>
          </dl>
          <ProductRetention />
        </>
      )}
    </SavedSettings>
  );
}

/** SPEC §2 `/globalSettings/edit`: the charge typed in pounds (at most 2 decimals), sent in pence. */
export function EditGlobalSettings() {
  return (
    <EditSettings title="Edit Global Settings" query={useGlobalSettings()}>
      {(data) => (
        <ChargeForm
          pence={data.settings?.nhsPrescriptionCharge}
          days={data.settings?.inactiveAccountDays ?? defaultInactiveAccountDays}
          secondFactor={data.settings?.supportSecondFactorRequired ?? true}
        />
      )}
    </EditSettings>
  );
}

function ChargeForm({ pence, days, secondFactor }: { pence: number | undefined; days: number; secondFactor: boolean }) {
  const navigate = useNavigate();
  const [amount, setAmount] = useState(pence === undefined ? '' : penceToAmountText(pence));
  const [inactiveDays, setInactiveDays] = useState(String(days));
  const [supportSecondFactorRequired, setSupportSecondFactorRequired] = useState(secondFactor);
  const state = useSaveState();

  const save = async () => {
    state.setError(undefined);
    // Core's SPEC §5 charge rule: digits, up to 2 decimals, above 0; read as pence without float maths.
    const parsed = Charge(amount);
    if (isArkErrors(parsed)) {
      state.setFieldErrors({ nhsPrescriptionCharge: parsed.summary });
      return;
    }
    state.start();
    try {
      // The server checks the days (a whole number from 1 to 3650) and answers on the field.
      const inactiveAccountDays = Number(inactiveDays.trim() === '' ? Number.NaN : inactiveDays);
      await rpc('globalSettings', 'createOrUpdateGlobalSettings', {
        nhsPrescriptionCharge: parsed,
        inactiveAccountDays: Number.isFinite(inactiveAccountDays) ? inactiveAccountDays : 0,
        supportSecondFactorRequired,
      });
      navigate(consolePaths.globalSettings, { state: { notice: 'Global settings saved.' } });
    } catch (e) {
      state.fail(e);
    }
  };

  return (
    <PageForm state={state} save={save} cancelHref={consolePaths.globalSettings}>
      <TextField
        label="NHS prescription charge (£)"
        name="nhsPrescriptionCharge"
        inputMode="decimal"
        placeholder="9.80"
        value={amount}
        onChange={setAmount}
        description="In pounds, with at most 2 decimals, e.g. 9.80."
        isRequired
        autoFocus
      />
      <TextField
        label="Disable accounts not used for (days)"
        name="inactiveAccountDays"
        inputMode="numeric"
        value={inactiveDays}
        onChange={setInactiveDays}
        description={`A staff account nobody has signed in to for this many days is disabled until support or an Admin enables it (1 to ${maxInactiveAccountDays}).`}
        isRequired
      />
      <Switch isSelected={supportSecondFactorRequired} onChange={setSupportSecondFactorRequired}>
        Support staff must sign in with a second factor
      </Switch>
    </PageForm>
  );
}
