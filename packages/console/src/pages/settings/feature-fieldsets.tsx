import {
  collectionWindowDays,
  type Nation,
  nationHasPrescriptionCharges,
  nationNames,
  nations,
  type SmsGateway,
  smsGatewayNames,
  smsGateways,
} from '@medlocker/core';
import { Checkbox } from '../../ui/Checkbox.tsx';
import { Fieldset } from '../../ui/Fieldset.tsx';
import { NumberField } from '../../ui/NumberField.tsx';
import { Select } from '../../ui/Select.tsx';
import { Switch } from '../../ui/Switch.tsx';
import { TextField } from '../../ui/TextField.tsx';
import type { FeatureFieldsetProps } from './fieldset-props.ts';
import { t } from './i18n/index.ts';
import { TemperatureFieldset } from './TemperatureFieldset.tsx';

/** The patient page's sign-up form of a business, served by this server (docs/decisions/patients.md, Online sign-ups). */
export const ourSignUpPage = (businessId: string) => `${window.location.origin}/signup/${businessId}`;

/**
 * The feature settings about orders: where the pharmacy is and its charges, barcodes, the patient ID
 * field, online sign-ups.
 */
export function OrderFieldsets({ s, update, ro, businessId }: FeatureFieldsetProps & { businessId: string }) {
  return (
    <>
      <ChargesFieldset s={s} update={update} ro={ro} />
      <PatientIdFieldset s={s} update={update} ro={ro} />
      <SignUpsFieldset s={s} update={update} ro={ro} businessId={businessId} />
    </>
  );
}

/** Where the pharmacy is (which decides NHS charges), charges, barcodes and the collection window. */
function ChargesFieldset({ s, update, ro }: FeatureFieldsetProps) {
  const charging = nationHasPrescriptionCharges(s.nation);
  return (
    <Fieldset legend={t('businessSettings.charges.legend')}>
      <Select
        label={t('businessSettings.charges.nation')}
        name="nation"
        selectedKey={s.nation}
        onSelectionChange={(key) => {
          if (key === null) return;
          const nation = key as Nation;
          // No NHS prescription charge outside England: the switch goes off with the move.
          update(nationHasPrescriptionCharges(nation) ? { nation } : { nation, charges: { enabled: false } });
        }}
        options={nations.map((n) => ({ id: n, label: nationNames[n] }))}
        description={t('businessSettings.charges.nationHint')}
        isDisabled={ro}
      />
      <Switch
        isSelected={s.charges.enabled}
        onChange={(v) => update({ charges: { enabled: v } })}
        isDisabled={ro || !charging}
        description={charging ? undefined : t('businessSettings.charges.noCharges', { nation: nationNames[s.nation] })}
      >
        {t('businessSettings.charges.prescription')}
      </Switch>
      <Switch
        isSelected={s.retailCharges.enabled}
        onChange={(v) => update({ retailCharges: { enabled: v } })}
        isDisabled={ro}
      >
        {t('businessSettings.charges.retail')}
      </Switch>
      {(['autoGenerate', 'autoPrint'] as const).map((key) => (
        <Switch
          key={key}
          isSelected={s.autoBarcodes[key]}
          onChange={(v) => update({ autoBarcodes: { ...s.autoBarcodes, [key]: v } })}
          isDisabled={ro}
        >
          {t(`businessSettings.charges.${key}`)}
        </Switch>
      ))}
      <NumberField
        label={t('businessSettings.charges.collectionWindow')}
        name="orderCollection.defaultCollectionWindow"
        minValue={collectionWindowDays.min}
        step={1}
        value={s.orderCollection.defaultCollectionWindow}
        onChange={(v) =>
          update({ orderCollection: { defaultCollectionWindow: Number.isNaN(v) ? collectionWindowDays.min : v } })
        }
        isDisabled={ro}
      />
    </Fieldset>
  );
}

/** How the patient ID is checked: a checkbox each, in this order. */
const patientIdChecks = [
  { key: 'required', label: 'required' },
  { key: 'validateNhsNumber', label: 'nhsNumber' },
] as const;

/** The patient ID field orders show, and how it is checked. */
function PatientIdFieldset({ s, update, ro }: FeatureFieldsetProps) {
  return (
    <Fieldset legend={t('businessSettings.patientId.legend')}>
      <TextField
        label={t('businessSettings.patientId.name')}
        name="displayIdField.name"
        value={s.displayIdField.name}
        onChange={(v) => update({ displayIdField: { ...s.displayIdField, name: v } })}
        isDisabled={ro}
      />
      {patientIdChecks.map(({ key, label }) => (
        <Checkbox
          key={key}
          isSelected={s.displayIdField[key]}
          onChange={(v) => update({ displayIdField: { ...s.displayIdField, [key]: v } })}
          isDisabled={ro}
        >
          {t(`businessSettings.patientId.${label}`)}
        </Checkbox>
      ))}
    </Fieldset>
  );
}

/** Online sign-ups: on or off, and the page patients are given. */
function SignUpsFieldset({ s, update, ro, businessId }: FeatureFieldsetProps & { businessId: string }) {
  const ourPage = ourSignUpPage(businessId);
  return (
    <Fieldset legend={t('businessSettings.signUps.legend')}>
      <Switch
        isSelected={s.onlineSignups.enabled}
        onChange={(v) =>
          // Turning sign-ups on with no address yet offers our own page, which takes them from now on.
          update({
            onlineSignups: { enabled: v, url: v && !s.onlineSignups.url?.trim() ? ourPage : s.onlineSignups.url },
          })
        }
        isDisabled={ro}
      >
        {t('businessSettings.signUps.enabled')}
      </Switch>
      <TextField
        label={t('businessSettings.signUps.url')}
        name="onlineSignups.url"
        type="url"
        value={s.onlineSignups.url ?? ''}
        onChange={(v) => update({ onlineSignups: { ...s.onlineSignups, url: v } })}
        isDisabled={ro}
        description={
          <>
            {t('businessSettings.signUps.urlHintBeforePage')}
            <code>{ourPage}</code>
            {t('businessSettings.signUps.urlHintAfterPage')}
          </>
        }
      />
    </Fieldset>
  );
}

/** The on/off message settings, in this order; `controlled` ones only support staff change. */
const messageSwitches = [
  { key: 'sendOnlyEmailIfPossible', label: 'onlyEmail', controlled: false },
  { key: 'sendOrderRemovedSms', label: 'orderRemoved', controlled: false },
  { key: 'sendOrderExpiringSms', label: 'orderExpiring', controlled: false },
  { key: 'enableWhatsApp', label: 'whatsApp', controlled: true },
] as const;

/**
 * The feature settings about messages and temperature. The gateway, WhatsApp and QR codes are
 * controlled: support staff change them; others see them as they are.
 */
export function MessageFieldsets({
  s,
  update,
  ro,
  mayControl,
  senderName,
  onSenderName,
}: FeatureFieldsetProps & { mayControl: boolean; senderName: string; onSenderName: (value: string) => void }) {
  return (
    <>
      <Fieldset legend={t('businessSettings.messages.legend')}>
        <TextField
          label={t('businessSettings.messages.senderName')}
          name="smsSenderName"
          value={senderName}
          onChange={onSenderName}
          description={t('businessSettings.messages.senderNameHint')}
          isDisabled={ro}
        />
        <Select
          label={t('businessSettings.messages.gateway')}
          name="smsGateway"
          selectedKey={s.smsGateway}
          onSelectionChange={(key) => key !== null && update({ smsGateway: key as SmsGateway })}
          options={smsGateways.map((g) => ({ id: g, label: smsGatewayNames[g] }))}
          description={t('businessSettings.messages.controlled')}
          isDisabled={ro || !mayControl}
        />
        {messageSwitches.map(({ key, label, controlled }) => (
          <Switch
            key={key}
            isSelected={s[key]}
            onChange={(v) => update({ [key]: v })}
            isDisabled={ro || (controlled && !mayControl)}
          >
            {t(`businessSettings.messages.${label}`)}
          </Switch>
        ))}
        <Switch
          isSelected={s.qrCodeIntegration.enabled}
          onChange={(v) => update({ qrCodeIntegration: { enabled: v } })}
          isDisabled={ro || !mayControl}
        >
          {t('businessSettings.messages.qrCodes')}
        </Switch>
      </Fieldset>
      <TemperatureFieldset s={s} update={update} ro={ro} />
    </>
  );
}
