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
import { useRpcQuery } from '../../api/queries.ts';
import { consolePaths } from '../../paths.ts';
import { DetailsItem } from '../../ui/Details.tsx';
import { PageForm, useSaveState } from '../../ui/PageForm.tsx';
import { EditSettings, SavedSettings } from '../../ui/SavedSettings.tsx';
import { Switch } from '../../ui/Switch.tsx';
import { TextField, textFieldsOf } from '../../ui/TextField.tsx';
import { ProductRetention } from '../retention/ProductRetention.tsx';
import { t } from './i18n/index.ts';

const useGlobalSettings = () => useRpcQuery(['globalSettings', 'getGlobalSettings'], {});

/**
 * SPEC §2 `/globalSettings`: settings for every business, the NHS prescription charge; and after how
 * many days without a sign-in a staff account is disabled (issue 37 §2).
 */
export function GlobalSettings() {
  return (
    <SavedSettings
      title={t('globalSettings.title')}
      lead={t('globalSettings.lead')}
      editHref={`${consolePaths.globalSettings}/edit`}
      query={useGlobalSettings()}
    >
      {({ settings }) => (
        <>
          <dl className="details">
            <DetailsItem term={t('globalSettings.charge')}>
              {settings?.nhsPrescriptionCharge === undefined
                ? t('globalSettings.notSet')
                : formatPence(settings.nhsPrescriptionCharge)}
            </DetailsItem>
            <DetailsItem term={t('globalSettings.inactive')}>
              {t('globalSettings.inactiveDays', {
                days: settings?.inactiveAccountDays ?? defaultInactiveAccountDays,
              })}
            </DetailsItem>
            <DetailsItem term={t('globalSettings.secondFactor')}>
              {t((settings?.supportSecondFactorRequired ?? true) ? 'globalSettings.yes' : 'globalSettings.no')}
            </DetailsItem>
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
    <EditSettings title={t('globalSettings.editTitle')} query={useGlobalSettings()}>
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
  // The two fields' texts, by field name.
  const [texts, setTexts] = useState({
    nhsPrescriptionCharge: pence === undefined ? '' : penceToAmountText(pence),
    inactiveAccountDays: String(days),
  });
  const text = textFieldsOf(texts, setTexts);
  const [supportSecondFactorRequired, setSupportSecondFactorRequired] = useState(secondFactor);
  const state = useSaveState();

  const save = async () => {
    state.setError(undefined);
    // Core's SPEC §5 charge rule: digits, up to 2 decimals, above 0; read as pence without float maths.
    const parsed = Charge(texts.nhsPrescriptionCharge);
    if (isArkErrors(parsed)) {
      state.setFieldErrors({ nhsPrescriptionCharge: parsed.summary });
      return;
    }
    state.start();
    try {
      // The server checks the days (a whole number from 1 to 3650) and answers on the field.
      const daysText = texts.inactiveAccountDays;
      const inactiveAccountDays = Number(daysText.trim() === '' ? Number.NaN : daysText);
      await rpc('globalSettings', 'createOrUpdateGlobalSettings', {
        nhsPrescriptionCharge: parsed,
        inactiveAccountDays: Number.isFinite(inactiveAccountDays) ? inactiveAccountDays : 0,
        supportSecondFactorRequired,
      });
      navigate(consolePaths.globalSettings, { state: { notice: t('globalSettings.saved') } });
    } catch (e) {
      state.fail(e);
    }
  };

  return (
    <PageForm state={state} save={save} cancelHref={consolePaths.globalSettings}>
      <TextField
        label={t('globalSettings.chargeLabel')}
        inputMode="decimal"
        placeholder="9.80"
        description={t('globalSettings.chargeHint')}
        isRequired
        autoFocus
        {...text('nhsPrescriptionCharge')}
      />
      <TextField
        label={t('globalSettings.inactiveLabel')}
        inputMode="numeric"
        description={t('globalSettings.inactiveHint', { max: maxInactiveAccountDays })}
        isRequired
        {...text('inactiveAccountDays')}
      />
      <Switch isSelected={supportSecondFactorRequired} onChange={setSupportSecondFactorRequired}>
        {t('globalSettings.secondFactorSwitch')}
      </Switch>
    </PageForm>
  );
}
