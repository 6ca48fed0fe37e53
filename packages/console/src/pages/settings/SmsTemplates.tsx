import {
  defaultSmsTemplates,
  expiresIn,
  formatLongDate,
  formatPin,
  joinLanguages,
  type Locale,
  locales,
  machineAndBusinessIn,
  type PlaceholderValues,
  renderTemplate,
  type SmsTemplateKey,
  smsPreviewCaption,
  smsTemplateKeys,
} from '@medlocker/core';
import { useState } from 'react';
import { errorsOf, rpc } from '../../api/client.ts';
import { useRpcQuery } from '../../api/queries.ts';
import { t } from '../../i18n/index.ts';
import { Banner } from '../../ui/Banner.tsx';
import { PageForm, useSaveState } from '../../ui/PageForm.tsx';
import { QueryView } from '../../ui/QueryView.tsx';
import { Select } from '../../ui/Select.tsx';
import { TemplateField } from '../../ui/TemplateField.tsx';
import { useBusiness } from '../businesses/BusinessLayout.tsx';
import { ReadOnlyNotice, SettingsHeader } from './settings-parts.tsx';

/** What each template is for, as staff know it. */
const templateName = (key: SmsTemplateKey) => t(`sms.template.${key}`);

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

/** The sample values written each language's way (a Welsh date in `${expires}`). */
const sampleIn = (language: Locale): Required<PlaceholderValues> => ({
  ...sampleValues,
  machineAndBusiness: machineAndBusinessIn(language, sampleValues.machineName, sampleValues.businessName),
  expires: expiresIn(language, Date.UTC(2030, 0, 31, 18, 30)),
});

type Templates = Record<SmsTemplateKey, string>;

// biome-ignore lint/suspicious/noTemplateCurlyInString: the placeholder as staff write it.
const pinPlaceholder = '${pin}';

/**
 * SPEC §2 `/businesses/{businessId}/settings/sms`: the eight templates of one language (English or
 * Welsh: each has its own, with the same checks), each with a live preview.
 */
export function SmsTemplatesPage() {
  const { business } = useBusiness();
  const [language, setLanguage] = useState<Locale>('en');
  const query = useRpcQuery(
    ['businessSettings', 'getBusinessSmsTemplates', business.id, language],
    { businessId: business.id, language },
    { fresh: true },
  );
  return (
    <SettingsHeader title={t('sms.title')}>
      <Select
        label={t('sms.language')}
        name="language"
        selectedKey={language}
        onSelectionChange={(key) => key !== null && setLanguage(key as Locale)}
        options={locales.map((l) => ({ id: l, label: t(`language.${l}`) }))}
      />
      <QueryView query={query}>
        {(data) => (
          <TemplatesForm
            key={data.language}
            businessId={business.id}
            language={data.language}
            initial={data.templates}
            defaults={data.defaults}
            archived={data.archived || Boolean(business.archived)}
          />
        )}
      </QueryView>
    </SettingsHeader>
  );
}

function TemplatesForm({
  businessId,
  language,
  initial,
  defaults,
  archived,
}: {
  businessId: string;
  language: Locale;
  initial: Templates;
  defaults: Templates;
  archived: boolean;
}) {
  const [saved, setSaved] = useState(initial);
  const [texts, setTexts] = useState(initial);
  const [notice, setNotice] = useState<string>();
  const state = useSaveState('templates.');

  const save = async () => {
    setNotice(undefined);
    const changed = Object.fromEntries(smsTemplateKeys.filter((k) => texts[k] !== saved[k]).map((k) => [k, texts[k]]));
    if (Object.keys(changed).length === 0) {
      state.setError(undefined);
      state.setFieldErrors({});
      setNotice(t('sms.nothingChanged'));
      return;
    }
    state.start();
    try {
      const answer = await rpc('businessSettings', 'updateBusinessSmsTemplates', {
        businessId,
        language,
        templates: changed,
      });
      setSaved(answer.templates);
      setTexts(answer.templates);
      setNotice(t('sms.saved'));
      state.setPending(false);
    } catch (e) {
      state.fail(e);
      const { fields, form } = errorsOf(e, 'templates.');
      if (!form && Object.keys(fields).length > 0) state.setError(t('sms.someNeedChanging'));
    }
  };

  return (
    <>
      <ReadOnlyNotice archived={archived} />
      {notice && <Banner tone="success">{notice}</Banner>}
      <p className="page__lead">{t('sms.lead', { pin: pinPlaceholder, samplePin: sampleValues.pin })}</p>
      <PageForm state={state} save={save} readOnly={archived} wide>
        {smsTemplateKeys.map((key) => (
          <TemplateField
            key={key}
            label={templateName(key)}
            name={key}
            value={texts[key]}
            defaultValue={defaults[key]}
            onChange={(v) => setTexts((before) => ({ ...before, [key]: v }))}
            isDisabled={archived}
          >
            <SmsPreview name={templateName(key)} text={renderTemplate(texts[key], sampleIn(language))} />
            {language === 'cy' && (
              <SmsPreview
                name={`${templateName(key)}: ${t('sms.bilingualPreview')}`}
                text={joinLanguages([
                  renderTemplate(texts[key], sampleIn('cy')),
                  renderTemplate(defaultSmsTemplates[key], sampleIn('en')),
                ])}
              />
            )}
          </TemplateField>
        ))}
      </PageForm>
    </>
  );
}

/** How the message reads with the sample values, and how many texts it takes. */
function SmsPreview({ name, text }: { name: string; text: string }) {
  return (
    <figure className="sms-preview" aria-label={t('sms.preview', { name })}>
      <figcaption className="sms-preview__caption">{smsPreviewCaption(text)}</figcaption>
      <p className="sms-preview__text">{text}</p>
    </figure>
  );
}
