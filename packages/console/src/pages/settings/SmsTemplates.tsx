import {
  formatLongDate,
  formatPin,
  type PlaceholderValues,
  renderTemplate,
  type SmsTemplateKey,
  smsPreviewCaption,
  smsTemplateKeys,
} from '@medlocker/core';
import { useState } from 'react';
import { errorsOf, rpc } from '../../api/client.ts';
import { Banner } from '../../ui/Banner.tsx';
import { PageForm, useSaveState } from '../../ui/PageForm.tsx';
import { TemplateField } from '../../ui/TemplateField.tsx';
import { BusinessSettingsPage, ReadOnlyNotice } from './settings-parts.tsx';

/** What each template is for, as staff know it. */
const templateNames: Record<SmsTemplateKey, string> = {
  machineBackInOrder: 'Machine back in order',
  machineOutOfOrder: 'Machine out of order',
  orderReady: 'Order ready',
  orderUpdated: 'Order updated',
  orderRemoved: 'Order removed',
  orderExpiring: 'Order expiring',
  paymentRequired: 'Payment required',
  orderCollected: 'Order collected',
};

/** Made-up values for the previews (SPEC §9: sample values are illustrative only). */
const sampleValues: Required<PlaceholderValues> = {
  businessName: 'Example Pharmacy',
  machineName: 'Locker 1',
  machineAndBusiness: 'Locker 1 at Example Pharmacy',
  pin: formatPin('12345678'),
  expires: formatLongDate('2030-01-31'),
  portal: 'https://pay.example.com/AB12CD',
  postcode: 'AB1 2CD',
  temperature: '9.2°C',
};

type Templates = Record<SmsTemplateKey, string>;

// biome-ignore lint/suspicious/noTemplateCurlyInString: the placeholder as staff write it.
const pinPlaceholder = '${pin}';

/** SPEC §2 `/businesses/{businessId}/settings/sms`: the eight templates, each with a live preview. */
export const SmsTemplatesPage = () => (
  <BusinessSettingsPage
    title="SMS templates"
    read={['businessSettings', 'getBusinessSmsTemplates']}
    form={(data, { businessId, archived }) => (
      <TemplatesForm businessId={businessId} initial={data.templates} defaults={data.defaults} archived={archived} />
    )}
  />
);

function TemplatesForm({
  businessId,
  initial,
  defaults,
  archived,
}: {
  businessId: string;
  initial: Templates;
  defaults: Templates;
  archived: boolean;
}) {
  const [saved, setSaved] = useState(initial);
  const [t, setT] = useState(initial);
  const [notice, setNotice] = useState<string>();
  const state = useSaveState('templates.');

  const save = async () => {
    setNotice(undefined);
    const changed = Object.fromEntries(smsTemplateKeys.filter((k) => t[k] !== saved[k]).map((k) => [k, t[k]]));
    if (Object.keys(changed).length === 0) {
      state.setError(undefined);
      state.setFieldErrors({});
      setNotice('Nothing has changed.');
      return;
    }
    state.start();
    try {
      const answer = await rpc('businessSettings', 'updateBusinessSmsTemplates', { businessId, templates: changed });
      setSaved(answer.templates);
      setT(answer.templates);
      setNotice('SMS templates saved.');
      state.setPending(false);
    } catch (e) {
      state.fail(e);
      const { fields, form } = errorsOf(e, 'templates.');
      if (!form && Object.keys(fields).length > 0)
        state.setError('Some templates need changing: see the messages below.');
    }
  };

  return (
    <>
      <ReadOnlyNotice archived={archived} />
      {notice && <Banner tone="success">{notice}</Banner>}
      <p className="page__lead">
        Placeholders such as <code>{pinPlaceholder}</code> are filled in for each patient. The previews use made-up
        example values (Example Pharmacy, PIN {sampleValues.pin}); a real message may be longer or shorter.
      </p>
      <PageForm state={state} save={save} readOnly={archived} wide>
        {smsTemplateKeys.map((key) => (
          <TemplateField
            key={key}
            label={templateNames[key]}
            name={key}
            value={t[key]}
            defaultValue={defaults[key]}
            onChange={(v) => setT((before) => ({ ...before, [key]: v }))}
            isDisabled={archived}
          >
            <SmsPreview name={templateNames[key]} text={renderTemplate(t[key], sampleValues)} />
          </TemplateField>
        ))}
      </PageForm>
    </>
  );
}

/** How the message reads with the sample values, and how many texts it takes. */
function SmsPreview({ name, text }: { name: string; text: string }) {
  return (
    <figure className="sms-preview" aria-label={`${name} preview`}>
      <figcaption className="sms-preview__caption">{smsPreviewCaption(text)}</figcaption>
      <p className="sms-preview__text">{text}</p>
    </figure>
  );
}
