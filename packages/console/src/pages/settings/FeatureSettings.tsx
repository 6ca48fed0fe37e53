import type { BusinessFeatureSettings } from '@medlocker/core';
import { useState } from 'react';
import { rpc } from '../../api/client.ts';
import { useMayCall } from '../../state/access.ts';
import { Banner } from '../../ui/Banner.tsx';
import { PageForm, useSaveState } from '../../ui/PageForm.tsx';
import { AlarmsFieldset } from './AlarmsFieldset.tsx';
import { MessageFieldsets, OrderFieldsets } from './feature-fieldsets.tsx';
import { t } from './i18n/index.ts';
import { LabelsFieldset } from './LabelsFieldset.tsx';
import { LanguageFieldset } from './LanguageFieldset.tsx';
import { NhsLoginFieldset } from './NhsLoginFieldset.tsx';
import { SignInFieldset } from './SignInFieldset.tsx';
import { BusinessSettingsPage, ReadOnlyNotice } from './settings-parts.tsx';

/** SPEC §2 `/businesses/{businessId}/settings/features`: the business's feature settings. */
export const FeatureSettingsPage = () => (
  <BusinessSettingsPage
    title={t('businessSettings.index.features.title')}
    read={['businessSettings', 'getBusinessFeatureSettings']}
    form={(data, { businessId, archived }) => (
      <FeatureForm
        businessId={businessId}
        initial={data.settings}
        archived={archived}
        nhsLoginUnavailable={data.nhsLoginUnavailable}
      />
    )}
  />
);

/** The settings sent to updateBusinessFeatureSettings: everything but the controlled ones. */
const featureInput = (s: BusinessFeatureSettings, senderName: string) => ({
  autoBarcodes: s.autoBarcodes,
  labels: s.labels,
  nation: s.nation,
  charges: s.charges,
  retailCharges: s.retailCharges,
  displayIdField: s.displayIdField,
  nhsLogin: s.nhsLogin,
  onlineSignups: { enabled: s.onlineSignups.enabled, url: s.onlineSignups.url?.trim() || null },
  orderCollection: s.orderCollection,
  sendOnlyEmailIfPossible: s.sendOnlyEmailIfPossible,
  sendOrderRemovedSms: s.sendOrderRemovedSms,
  sendOrderExpiringSms: s.sendOrderExpiringSms,
  smsSenderName: senderName.trim() === '' ? null : senderName,
  temperatureSettings: s.temperatureSettings,
  secondFactorRequired: s.secondFactorRequired,
  patientLanguage: s.patientLanguage,
});

/** The controlled settings: support staff's to change. */
const controlledOf = (s: BusinessFeatureSettings) => ({
  smsGateway: s.smsGateway,
  enableWhatsApp: s.enableWhatsApp,
  qrCodeIntegration: s.qrCodeIntegration,
});

function FeatureForm({
  businessId,
  initial,
  archived,
  nhsLoginUnavailable,
}: {
  businessId: string;
  initial: BusinessFeatureSettings;
  archived: boolean;
  /** Why NHS login cannot be switched on (the server lacks its configuration), or null. */
  nhsLoginUnavailable: string | null;
}) {
  const [s, setS] = useState(initial);
  const [senderName, setSenderName] = useState(initial.smsSenderName ?? '');
  const state = useSaveState('settings.');
  const [saved, setSaved] = useState(false);
  // The controlled settings (gateway, WhatsApp, QR codes) are support's: a pharmacy administrator saves
  // the rest, and sees these as they are.
  const mayControl = useMayCall(['businessSettings', 'updateBusinessControlledSettings']);
  const update = (patch: Partial<BusinessFeatureSettings>) => {
    setSaved(false);
    setS((before) => ({ ...before, ...patch }));
  };

  const save = async () => {
    state.start();
    setSaved(false);
    try {
      const features = await rpc('businessSettings', 'updateBusinessFeatureSettings', {
        businessId,
        settings: featureInput(s, senderName),
      });
      const controlled = mayControl
        ? (
            await rpc('businessSettings', 'updateBusinessControlledSettings', {
              businessId,
              settings: controlledOf(s),
            })
          ).settings
        : controlledOf(s);
      // What the server kept (trimmed, normalised).
      setS({ ...features.settings, ...controlled });
      setSenderName(features.settings.smsSenderName ?? '');
      setSaved(true);
      state.setPending(false);
    } catch (e) {
      state.fail(e);
    }
  };

  return (
    <>
      <ReadOnlyNotice archived={archived} />
      {saved && <Banner tone="success">{t('businessSettings.features.saved')}</Banner>}
      <PageForm state={state} save={save} readOnly={archived}>
        <OrderFieldsets s={s} update={update} ro={archived} businessId={businessId} />
        <LanguageFieldset s={s} update={update} ro={archived} />
        <LabelsFieldset s={s} update={update} ro={archived} />
        <NhsLoginFieldset s={s} update={update} ro={archived} unavailable={nhsLoginUnavailable} />
        <MessageFieldsets
          s={s}
          update={update}
          ro={archived}
          mayControl={mayControl}
          senderName={senderName}
          onSenderName={(v) => {
            setSaved(false);
            setSenderName(v);
          }}
        />
        <SignInFieldset s={s} update={update} ro={archived} />
        <AlarmsFieldset s={s} update={update} ro={archived} />
      </PageForm>
    </>
  );
}
