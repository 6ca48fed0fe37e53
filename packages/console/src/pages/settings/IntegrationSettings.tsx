import { type IntegrationClientView, type IntegrationPartner, integrationRateLimit } from '@medlocker/core';
import { useState } from 'react';
import { rpc } from '../../api/client.ts';
import { useQuery } from '../../api/queries.ts';
import { webhookPaths } from '../../paths.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Link } from '../../ui/Link.tsx';
import { NumberField } from '../../ui/NumberField.tsx';
import { PageForm, useSaveState } from '../../ui/PageForm.tsx';
import { QueryView } from '../../ui/QueryView.tsx';
import { Panel } from '../../ui/Section.tsx';
import { Select } from '../../ui/Select.tsx';
import { Switch } from '../../ui/Switch.tsx';
import { TextField, textFieldsOf } from '../../ui/TextField.tsx';
import { useBusiness } from '../businesses/BusinessLayout.tsx';
import { IntegrationSecrets as Secrets } from './IntegrationSecrets.tsx';
import { t } from './i18n/index.ts';
import { QrSigningKey } from './QrSigningKey.tsx';
import { SecretReveal } from './SecretReveal.tsx';
import { ReadOnlyNotice, SettingsHeader } from './settings-parts.tsx';

/** SPEC §2 `/businesses/{businessId}/settings/integration`: the patient-record system connection. */
export function IntegrationSettings() {
  const { business } = useBusiness();
  const query = useQuery(
    async (signal) => {
      const [client, partners] = await Promise.all([
        rpc('integration', 'getIntegrationClient', { businessId: business.id }, { signal }),
        rpc('integration', 'listIntegrationPartners', {}, { signal }),
      ]);
      return { ...client, partners: partners.partners };
    },
    ['integration', 'getIntegrationClient', business.id],
  );
  const [revealed, setRevealed] = useState<{ label: string; secret: string } | null>(null);
  const [notice, setNotice] = useState<string>();

  return (
    <SettingsHeader title={t('businessSettings.index.integration.title')}>
      <QueryView query={query}>
        {(data) => (
          <>
            <ReadOnlyNotice archived={data.archived || Boolean(business.archived)} />
            {notice && <Banner tone="success">{notice}</Banner>}
            {revealed && (
              <SecretReveal label={revealed.label} secret={revealed.secret} onDone={() => setRevealed(null)} />
            )}
            {data.client && (
              <Secrets
                client={data.client}
                archived={data.archived}
                onNewSecret={(label, secret) => {
                  setNotice(undefined);
                  setRevealed({ label, secret });
                  query.reload();
                }}
                onDeleted={query.reload}
              />
            )}
            {data.client && (
              <p>
                <Link href={webhookPaths.deliveries(business.id)}>
                  {t('businessSettings.integration.deliveriesLink')}
                </Link>
                {t('businessSettings.integration.deliveriesAfterLink')}
              </p>
            )}
            <ClientForm
              key={data.client?.updated ?? 0}
              businessId={business.id}
              client={data.client}
              partners={data.partners}
              archived={data.archived}
              onSaved={(message, webhookSecret) => {
                setNotice(message);
                if (webhookSecret) setRevealed({ label: t('businessSettings.secret.webhook'), secret: webhookSecret });
                query.reload();
              }}
            />
            <QrSigningKey businessId={business.id} archived={data.archived || Boolean(business.archived)} />
          </>
        )}
      </QueryView>
    </SettingsHeader>
  );
}

type Fields = {
  partnerId: string | null;
  name: string;
  contactEmail: string;
  suppressPatientMessages: boolean;
  webhookUrl: string;
  rateLimit: number;
};

const fieldsOf = (client: IntegrationClientView | null): Fields => ({
  partnerId: client?.partnerId ?? null,
  name: client?.name ?? '',
  contactEmail: client?.contactEmail ?? '',
  suppressPatientMessages: client?.suppressPatientMessages ?? false,
  webhookUrl: client?.webhookUrl ?? '',
  rateLimit: client?.rateLimit.rateLimit ?? integrationRateLimit.default,
});

function ClientForm({
  businessId,
  client,
  partners,
  archived,
  onSaved,
}: {
  businessId: string;
  client: IntegrationClientView | null;
  partners: IntegrationPartner[];
  archived: boolean;
  onSaved: (message: string, webhookSecret: string | null) => void;
}) {
  const [f, setF] = useState<Fields>(() => fieldsOf(client));
  const state = useSaveState();

  const save = async () => {
    state.start();
    try {
      const answer = await rpc('integration', 'createOrUpdateIntegrationClient', {
        businessId,
        partnerId: f.partnerId,
        name: f.name,
        contactEmail: f.contactEmail,
        suppressPatientMessages: f.suppressPatientMessages,
        webhookUrl: f.webhookUrl.trim() === '' ? null : f.webhookUrl.trim(),
        rateLimit: f.rateLimit,
        // The masked secret keeps the stored one (SPEC §4).
        ...(client ? { secret: client.secret } : {}),
      });
      state.setPending(false);
      const saved = client ? t('businessSettings.integration.saved') : t('businessSettings.integration.added');
      onSaved(saved, answer.webhookSecret);
    } catch (e) {
      state.fail(e);
    }
  };

  const submitLabel = client ? t('businessSettings.integration.save') : t('businessSettings.integration.add');
  return (
    <Panel
      id="client-title"
      title={client ? t('businessSettings.integration.clientTitle') : t('businessSettings.integration.addTitle')}
    >
      <PageForm state={state} save={save} readOnly={archived} submitLabel={submitLabel}>
        <ClientFields f={f} onChange={setF} partners={partners} ro={archived} />
      </PageForm>
    </Panel>
  );
}

/** Who the client is (a known partner fills these in), its webhook and its hourly rate limit. */
function ClientFields({
  f,
  onChange,
  partners,
  ro,
}: {
  f: Fields;
  onChange: (f: Fields) => void;
  partners: IntegrationPartner[];
  ro: boolean;
}) {
  const text = textFieldsOf(f, onChange, ro);
  return (
    <>
      <Select
        label={t('businessSettings.integration.partner')}
        name="partnerId"
        placeholder={t('businessSettings.integration.partnerPlaceholder')}
        description={t('businessSettings.integration.partnerHint')}
        selectedKey={f.partnerId}
        onSelectionChange={(key) => {
          const partner = partners.find((p) => p.id === key);
          if (!partner) return;
          onChange({
            ...f,
            partnerId: partner.id,
            name: partner.name,
            contactEmail: partner.contactEmail,
            suppressPatientMessages: partner.suppressPatientMessages,
          });
        }}
        options={partners.map((p) => ({ id: p.id, label: p.name }))}
        isDisabled={ro}
      />
      <TextField label={t('businessSettings.integration.name')} isRequired {...text('name')} />
      <TextField
        label={t('businessSettings.integration.contactEmail')}
        type="email"
        isRequired
        {...text('contactEmail')}
      />
      <Switch
        isSelected={f.suppressPatientMessages}
        onChange={(v) => onChange({ ...f, suppressPatientMessages: v })}
        description={t('businessSettings.integration.suppressHint')}
        isDisabled={ro}
      >
        {t('businessSettings.integration.suppress')}
      </Switch>
      <DeliveryFields f={f} onChange={onChange} ro={ro} />
    </>
  );
}

/** Where the client's webhook goes and how many requests an hour it may make. */
function DeliveryFields({ f, onChange, ro }: { f: Fields; onChange: (f: Fields) => void; ro: boolean }) {
  const { min, max } = integrationRateLimit;
  const text = textFieldsOf(f, onChange, ro);
  return (
    <>
      <TextField
        label={t('businessSettings.integration.webhookUrl')}
        type="url"
        description={t('businessSettings.integration.webhookUrlHint')}
        {...text('webhookUrl')}
      />
      <NumberField
        label={t('businessSettings.integration.rateLimit')}
        name="rateLimit"
        minValue={min}
        maxValue={max}
        step={1}
        value={f.rateLimit}
        onChange={(v) => onChange({ ...f, rateLimit: Number.isNaN(v) ? integrationRateLimit.default : v })}
        description={t('businessSettings.integration.rateLimitHint', { min, max })}
        isDisabled={ro}
      />
    </>
  );
}
