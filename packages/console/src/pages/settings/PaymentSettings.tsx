import { fieldErrorsOf, isArkErrors, type JudoSettings, PaymentSettings } from '@medlocker/core';
import { useState } from 'react';
import { rpc } from '../../api/client.ts';
import { Banner } from '../../ui/Banner.tsx';
import { ConfirmDialog } from '../../ui/Dialog.tsx';
import { PageForm, useSaveState } from '../../ui/PageForm.tsx';
import { Select } from '../../ui/Select.tsx';
import { TextField, textFieldsOf } from '../../ui/TextField.tsx';
import { t } from './i18n/index.ts';
import { JudoFieldset } from './JudoFieldset.tsx';
import { BusinessSettingsPage, ReadOnlyNotice } from './settings-parts.tsx';

type Fields = {
  contactNumber: string;
  legalInfo: string;
  provider: 'judo' | null;
  judo: JudoSettings;
};

const blankJudo: JudoSettings = {
  id: '',
  sandbox: false,
  token: '',
  secret: '',
  showVisa: true,
  showAmex: false,
  showMastercard: true,
};

/** Each field's message id, as the confirmation names it. */
const labels = {
  contactNumber: 'businessSettings.payment.contactNumber',
  legalInfo: 'businessSettings.payment.legalInfo',
  provider: 'businessSettings.payment.provider',
  'judo.id': 'businessSettings.judo.id',
  'judo.secret': 'businessSettings.judo.secret',
  'judo.token': 'businessSettings.judo.token',
  'judo.sandbox': 'businessSettings.judo.sandbox',
  'judo.showVisa': 'businessSettings.judo.showVisa',
  'judo.showAmex': 'businessSettings.judo.showAmex',
  'judo.showMastercard': 'businessSettings.judo.showMastercard',
} as const;

/** The fields whose values differ, as labels for the confirmation (SPEC §4 payment settings save). */
function changedFields(before: Fields, after: Fields): string[] {
  const flat = (f: Fields): Record<keyof typeof labels, unknown> => ({
    contactNumber: f.contactNumber,
    legalInfo: f.legalInfo,
    provider: f.provider,
    'judo.id': f.judo.id,
    'judo.secret': f.judo.secret,
    'judo.token': f.judo.token,
    'judo.sandbox': f.judo.sandbox,
    'judo.showVisa': f.judo.showVisa,
    'judo.showAmex': f.judo.showAmex,
    'judo.showMastercard': f.judo.showMastercard,
  });
  const a = flat(before);
  const b = flat(after);
  return (Object.keys(labels) as (keyof typeof labels)[]).filter((k) => a[k] !== b[k]).map((k) => t(labels[k]));
}

/** SPEC §2 `/businesses/{businessId}/settings/payment`: contact, legal info and card provider. */
export const PaymentSettingsPage = () => (
  <BusinessSettingsPage
    title={t('businessSettings.index.payment.title')}
    read={['paymentSettings', 'getPaymentSettings']}
    form={(data, { businessId, archived }) => (
      <PaymentForm businessId={businessId} initial={fieldsOf(data.settings)} archived={archived} />
    )}
  />
);

/** What the server kept, as the form's fields. */
const fieldsOf = (
  settings: (Partial<Omit<Fields, 'judo'>> & { judo?: JudoSettings | null }) | null | undefined,
): Fields => ({
  contactNumber: settings?.contactNumber ?? '',
  legalInfo: settings?.legalInfo ?? '',
  provider: settings?.provider ?? null,
  judo: settings?.judo ?? blankJudo,
});

function PaymentForm({ businessId, initial, archived }: { businessId: string; initial: Fields; archived: boolean }) {
  const [saved, setSaved] = useState(initial);
  const [f, setF] = useState(initial);
  const state = useSaveState();
  const [notice, setNotice] = useState<string>();
  const [confirming, setConfirming] = useState<string[] | null>(null);

  const input = () => ({
    businessId,
    contactNumber: f.contactNumber,
    legalInfo: f.legalInfo,
    provider: f.provider,
    judo: f.provider === 'judo' ? f.judo : null,
  });

  // Checked here with core's rules first, so the confirmation only lists changes that can be saved.
  const review = () => {
    state.setError(undefined);
    setNotice(undefined);
    const checked = PaymentSettings(input());
    if (isArkErrors(checked)) {
      state.setFieldErrors(Object.fromEntries(fieldErrorsOf(checked).map((e) => [e.path, e.message])));
      return;
    }
    state.setFieldErrors({});
    const changes = changedFields(saved, f);
    if (changes.length === 0) {
      setNotice(t('businessSettings.payment.nothingChanged'));
      return;
    }
    setConfirming(changes);
  };

  const save = async () => {
    state.setPending(true);
    try {
      const next = fieldsOf((await rpc('paymentSettings', 'updatePaymentSettings', input())).settings);
      setSaved(next);
      setF(next);
      setNotice(t('businessSettings.payment.saved'));
      state.setPending(false);
    } catch (e) {
      state.fail(e);
    }
    setConfirming(null);
  };

  return (
    <>
      <ReadOnlyNotice archived={archived} />
      {notice && <Banner tone="success">{notice}</Banner>}
      {/* The button asks first (the dialog shows the wait), so it never looks busy itself. */}
      <PageForm state={{ ...state, pending: false }} save={review} readOnly={archived}>
        <PaymentFields f={f} onChange={setF} ro={archived} />
      </PageForm>
      <ConfirmDialog
        title={t('businessSettings.payment.confirmTitle')}
        isOpen={confirming !== null}
        onOpenChange={(open) => !open && !state.pending && setConfirming(null)}
        cancelLabel={t('businessSettings.payment.confirmCancel')}
        confirmLabel={t('businessSettings.payment.confirmSave')}
        tone="primary"
        onConfirm={() => void save()}
        isPending={state.pending}
      >
        <p>{t('businessSettings.payment.confirmBody')}</p>
        <ul>
          {confirming?.map((label) => (
            <li key={label}>{label}</li>
          ))}
        </ul>
      </ConfirmDialog>
    </>
  );
}

/** The business's contact and legal lines for patients, and its card provider. */
function PaymentFields({ f, onChange, ro }: { f: Fields; onChange: (f: Fields) => void; ro: boolean }) {
  const text = textFieldsOf(f, onChange, ro);
  return (
    <>
      <TextField label={t('businessSettings.payment.contactNumber')} type="tel" isRequired {...text('contactNumber')} />
      <TextField
        label={t('businessSettings.payment.legalInfo')}
        description={t('businessSettings.payment.legalInfoHint')}
        isRequired
        {...text('legalInfo')}
      />
      <Select
        label={t('businessSettings.payment.provider')}
        name="provider"
        selectedKey={f.provider ?? 'none'}
        onSelectionChange={(key) => onChange({ ...f, provider: key === 'judo' ? 'judo' : null })}
        options={[
          { id: 'none', label: t('businessSettings.payment.providerNone') },
          { id: 'judo', label: t('businessSettings.payment.providerJudo') },
        ]}
        isDisabled={ro}
      />
      {f.provider === 'judo' && (
        <JudoFieldset judo={f.judo} update={(patch) => onChange({ ...f, judo: { ...f.judo, ...patch } })} ro={ro} />
      )}
    </>
  );
}
