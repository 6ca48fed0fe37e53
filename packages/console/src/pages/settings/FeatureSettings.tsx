import { type BusinessFeatureSettings, type SmsGateway, smsGatewayNames, smsGateways } from '@medlocker/core';
import { useState } from 'react';
import { errorsOf, rpc } from '../../api/client.ts';
import { useQuery } from '../../api/queries.ts';
import { useMayCall } from '../../state/access.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { Form, FormActions } from '../../ui/Form.tsx';
import { QueryView } from '../../ui/QueryView.tsx';
import { Select } from '../../ui/Select.tsx';
import { Switch } from '../../ui/Switch.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { useBusiness } from '../businesses/BusinessLayout.tsx';
import { OrderFieldsets } from './feature-fieldsets.tsx';
import { ReadOnlyNotice, SettingsHeader } from './settings-parts.tsx';

/** SPEC §2 `/businesses/{businessId}/settings/features`: the business's feature settings. */
export function FeatureSettingsPage() {
  const { business } = useBusiness();
  const query = useQuery(
    (signal) => rpc('businessSettings', 'getBusinessFeatureSettings', { businessId: business.id }, { signal }),
    ['businessSettings', 'getBusinessFeatureSettings', business.id],
  );
  return (
    <SettingsHeader title="Features">
      <QueryView query={query}>
        {(data) => (
          <FeatureForm
            businessId={business.id}
            initial={data.settings}
            archived={data.archived || Boolean(business.archived)}
          />
        )}
      </QueryView>
    </SettingsHeader>
  );
}

function FeatureForm({
  businessId,
  initial,
  archived,
}: {
  businessId: string;
  initial: BusinessFeatureSettings;
  archived: boolean;
}) {
  const [s, setS] = useState(initial);
  const [senderName, setSenderName] = useState(initial.smsSenderName ?? '');
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string>();
  const [saved, setSaved] = useState(false);
  const [pending, setPending] = useState(false);
  // The controlled settings (gateway, WhatsApp, QR codes) are support's: a pharmacy administrator saves
  // the rest, and sees these as they are.
  const mayControl = useMayCall(['businessSettings', 'updateBusinessControlledSettings']);
  const update = (patch: Partial<BusinessFeatureSettings>) => {
    setSaved(false);
    setS((before) => ({ ...before, ...patch }));
  };

  const submit = async () => {
    setPending(true);
    setError(undefined);
    setFieldErrors({});
    setSaved(false);
    try {
      const features = await rpc('businessSettings', 'updateBusinessFeatureSettings', {
        businessId,
        settings: {
          autoBarcodes: s.autoBarcodes,
          nation: s.nation,
          charges: s.charges,
          retailCharges: s.retailCharges,
          displayIdField: s.displayIdField,
          onlineSignups: { enabled: s.onlineSignups.enabled, url: s.onlineSignups.url?.trim() || null },
          orderCollection: s.orderCollection,
          sendOnlyEmailIfPossible: s.sendOnlyEmailIfPossible,
          sendOrderRemovedSms: s.sendOrderRemovedSms,
          sendOrderExpiringSms: s.sendOrderExpiringSms,
          smsSenderName: senderName.trim() === '' ? null : senderName,
          temperatureSettings: s.temperatureSettings,
        },
      });
      const controlled = mayControl
        ? (
            await rpc('businessSettings', 'updateBusinessControlledSettings', {
              businessId,
              settings: {
                smsGateway: s.smsGateway,
                enableWhatsApp: s.enableWhatsApp,
                qrCodeIntegration: s.qrCodeIntegration,
              },
            })
          ).settings
        : { smsGateway: s.smsGateway, enableWhatsApp: s.enableWhatsApp, qrCodeIntegration: s.qrCodeIntegration };
      // What the server kept (trimmed, normalised).
      setS({ ...features.settings, ...controlled });
      setSenderName(features.settings.smsSenderName ?? '');
      setSaved(true);
    } catch (e) {
      const { fields, form } = errorsOf(e, 'settings.');
      setFieldErrors(fields);
      setError(form);
    } finally {
      setPending(false);
    }
  };

  const ro = archived;
  return (
    <>
      <ReadOnlyNotice archived={archived} />
      {saved && <Banner tone="success">Feature settings saved.</Banner>}
      <Form
        className="form--page"
        error={error}
        validationErrors={fieldErrors}
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <OrderFieldsets s={s} update={update} ro={ro} businessId={businessId} />
        <fieldset className="fieldset">
          <legend className="fieldset__legend">Messages</legend>
          <TextField
            label="SMS sender ID"
            name="smsSenderName"
            value={senderName}
            onChange={(v) => {
              setSaved(false);
              setSenderName(v);
            }}
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
          <Switch
            isSelected={s.sendOrderRemovedSms}
            onChange={(v) => update({ sendOrderRemovedSms: v })}
            isDisabled={ro}
          >
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
        {!ro && (
          <FormActions>
            <Button type="submit" variant="primary" isPending={pending}>
              Save
            </Button>
          </FormActions>
        )}
      </Form>
    </>
  );
}
