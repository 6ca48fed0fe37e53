import { Charge, formatPence, isArkErrors, penceToAmountText } from '@medlocker/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { rpc } from '../../api/client.ts';
import { useQuery } from '../../api/queries.ts';
import { consolePaths } from '../../paths.ts';
import { PageForm, useSaveState } from '../../ui/PageForm.tsx';
import { EditSettings, SavedSettings } from '../../ui/SavedSettings.tsx';
import { TextField } from '../../ui/TextField.tsx';

const useGlobalSettings = () =>
  useQuery(
    (signal) => rpc('globalSettings', 'getGlobalSettings', {}, { signal }),
    ['globalSettings', 'getGlobalSettings'],
  );

/** SPEC §2 `/globalSettings`: settings for every business, the NHS prescription charge. */
export function GlobalSettings() {
  return (
    <SavedSettings
      title="Global Settings"
      lead="Settings that apply to every business."
      editHref={`${consolePaths.globalSettings}/edit`}
      query={useGlobalSettings()}
    >
      {({ settings }) => (
        <dl className="details">
          <div className="details__item">
            <dt>NHS prescription charge</dt>
            <dd>
              {settings?.nhsPrescriptionCharge === undefined ? 'Not set' : formatPence(settings.nhsPrescriptionCharge)}
            </dd>
          </div>
        </dl>
      )}
    </SavedSettings>
  );
}

/** SPEC §2 `/globalSettings/edit`: the charge typed in pounds (at most 2 decimals), sent in pence. */
export function EditGlobalSettings() {
  return (
    <EditSettings title="Edit Global Settings" query={useGlobalSettings()}>
      {(data) => <ChargeForm pence={data.settings?.nhsPrescriptionCharge} />}
    </EditSettings>
  );
}

function ChargeForm({ pence }: { pence: number | undefined }) {
  const navigate = useNavigate();
  const [amount, setAmount] = useState(pence === undefined ? '' : penceToAmountText(pence));
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
      await rpc('globalSettings', 'createOrUpdateGlobalSettings', { nhsPrescriptionCharge: parsed });
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
    </PageForm>
  );
}
