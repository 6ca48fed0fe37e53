import {
  type BusinessFeatureSettings,
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
import { NumberField } from '../../ui/NumberField.tsx';
import { Select } from '../../ui/Select.tsx';
import { Switch } from '../../ui/Switch.tsx';
import { TextField } from '../../ui/TextField.tsx';

export type FeatureFieldsetProps = {
  s: BusinessFeatureSettings;
  update: (patch: Partial<BusinessFeatureSettings>) => void;
  /** Read-only (an archived business). */
  ro: boolean;
};

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
    <fieldset className="fieldset">
      <legend className="fieldset__legend">Orders and charges</legend>
      <Select
        label="Where the pharmacy is"
        name="nation"
        selectedKey={s.nation}
        onSelectionChange={(key) => {
          if (key === null) return;
          const nation = key as Nation;
          // No NHS prescription charge outside England: the switch goes off with the move.
          update(nationHasPrescriptionCharges(nation) ? { nation } : { nation, charges: { enabled: false } });
        }}
        options={nations.map((n) => ({ id: n, label: nationNames[n] }))}
        description="Wales, Scotland and Northern Ireland have no NHS prescription charge."
        isDisabled={ro}
      />
      <Switch
        isSelected={s.charges.enabled}
        onChange={(v) => update({ charges: { enabled: v } })}
        isDisabled={ro || !charging}
        description={charging ? undefined : `No NHS prescription charges in ${nationNames[s.nation]}.`}
      >
        Prescription charges
      </Switch>
      <Switch
        isSelected={s.retailCharges.enabled}
        onChange={(v) => update({ retailCharges: { enabled: v } })}
        isDisabled={ro}
      >
        Retail charges
      </Switch>
      <Switch
        isSelected={s.autoBarcodes.autoGenerate}
        onChange={(v) => update({ autoBarcodes: { ...s.autoBarcodes, autoGenerate: v } })}
        isDisabled={ro}
      >
        Generate barcodes automatically
      </Switch>
      <Switch
        isSelected={s.autoBarcodes.autoPrint}
        onChange={(v) => update({ autoBarcodes: { ...s.autoBarcodes, autoPrint: v } })}
        isDisabled={ro}
      >
        Print barcodes automatically
      </Switch>
      <NumberField
        label="Default collection window (days)"
        name="orderCollection.defaultCollectionWindow"
        minValue={collectionWindowDays.min}
        step={1}
        value={s.orderCollection.defaultCollectionWindow}
        onChange={(v) =>
          update({ orderCollection: { defaultCollectionWindow: Number.isNaN(v) ? collectionWindowDays.min : v } })
        }
        isDisabled={ro}
      />
    </fieldset>
  );
}

/** The patient ID field orders show, and how it is checked. */
function PatientIdFieldset({ s, update, ro }: FeatureFieldsetProps) {
  return (
    <fieldset className="fieldset">
      <legend className="fieldset__legend">Patient ID</legend>
      <TextField
        label="Patient ID field name"
        name="displayIdField.name"
        value={s.displayIdField.name}
        onChange={(v) => update({ displayIdField: { ...s.displayIdField, name: v } })}
        isDisabled={ro}
      />
      <Checkbox
        isSelected={s.displayIdField.required}
        onChange={(v) => update({ displayIdField: { ...s.displayIdField, required: v } })}
        isDisabled={ro}
      >
        Patient ID required
      </Checkbox>
      <Checkbox
        isSelected={s.displayIdField.validateNhsNumber}
        onChange={(v) => update({ displayIdField: { ...s.displayIdField, validateNhsNumber: v } })}
        isDisabled={ro}
      >
        Check it is a valid NHS number
      </Checkbox>
    </fieldset>
  );
}

/** Online sign-ups: on or off, and the page patients are given. */
function SignUpsFieldset({ s, update, ro, businessId }: FeatureFieldsetProps & { businessId: string }) {
  const ourPage = ourSignUpPage(businessId);
  return (
    <fieldset className="fieldset">
      <legend className="fieldset__legend">Online sign-ups</legend>
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
        Patients can sign up online
      </Switch>
      <TextField
        label="Sign-up page URL"
        name="onlineSignups.url"
        type="url"
        value={s.onlineSignups.url ?? ''}
        onChange={(v) => update({ onlineSignups: { ...s.onlineSignups, url: v } })}
        isDisabled={ro}
        description={
          <>
            The address to give patients. Our sign-up page for this pharmacy is <code>{ourPage}</code>; it takes
            sign-ups while this is on, and they appear under Sign-ups.
          </>
        }
      />
    </fieldset>
  );
}

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
      <fieldset className="fieldset">
        <legend className="fieldset__legend">Messages</legend>
        <TextField
          label="SMS sender ID"
          name="smsSenderName"
          value={senderName}
          onChange={onSenderName}
          description="1 to 11 letters, digits, hyphens or spaces, starting and ending with a letter or digit. Blank: the gateway's default."
          isDisabled={ro}
        />
        <Select
          label="SMS gateway"
          name="smsGateway"
          selectedKey={s.smsGateway}
          onSelectionChange={(key) => key !== null && update({ smsGateway: key as SmsGateway })}
          options={smsGateways.map((g) => ({ id: g, label: smsGatewayNames[g] }))}
          description="Controlled by support staff only."
          isDisabled={ro || !mayControl}
        />
        <Switch
          isSelected={s.sendOnlyEmailIfPossible}
          onChange={(v) => update({ sendOnlyEmailIfPossible: v })}
          isDisabled={ro}
        >
          Send only an email when the patient has one
        </Switch>
        <Switch isSelected={s.sendOrderRemovedSms} onChange={(v) => update({ sendOrderRemovedSms: v })} isDisabled={ro}>
          Text the patient when an order is removed
        </Switch>
        <Switch
          isSelected={s.sendOrderExpiringSms}
          onChange={(v) => update({ sendOrderExpiringSms: v })}
          isDisabled={ro}
        >
          Text the patient before an order expires
        </Switch>
        <Switch
          isSelected={s.enableWhatsApp}
          onChange={(v) => update({ enableWhatsApp: v })}
          isDisabled={ro || !mayControl}
        >
          WhatsApp messages
        </Switch>
        <Switch
          isSelected={s.qrCodeIntegration.enabled}
          onChange={(v) => update({ qrCodeIntegration: { enabled: v } })}
          isDisabled={ro || !mayControl}
        >
          QR-code integration
        </Switch>
      </fieldset>
      <fieldset className="fieldset">
        <legend className="fieldset__legend">Temperature</legend>
        <Switch
          isSelected={s.temperatureSettings.enableTemperatureAlerts}
          onChange={(v) => update({ temperatureSettings: { enableTemperatureAlerts: v } })}
          isDisabled={ro}
        >
          Temperature alerts
        </Switch>
      </fieldset>
    </>
  );
}
