import { type AlarmTemplateCode, alarmTemplateCodes, machineAlerts } from '@medlocker/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { rpc } from '../../api/client.ts';
import { useRpcQuery } from '../../api/queries.ts';
import { consolePaths } from '../../paths.ts';
import { DetailsItem } from '../../ui/Details.tsx';
import { PageForm, useSaveState } from '../../ui/PageForm.tsx';
import { EditSettings, SavedSettings } from '../../ui/SavedSettings.tsx';
import { TemplateField } from '../../ui/TemplateField.tsx';
import { t } from './i18n/index.ts';

type Templates = Record<AlarmTemplateCode, string>;

/** 'EM_0016 AlarmTriggered' → 'EM_0016 · Alarm triggered'. */
const codeLabel = (code: AlarmTemplateCode) =>
  `${code} · ${machineAlerts[code].name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/ (\w)/g, (_, c: string) => ` ${c.toLowerCase()}`)}`;

const useTemplates = () => useRpcQuery(['globalSettings', 'getAlarmMessageTemplates'], {}, { fresh: true });

/** SPEC §2 `/alarmMessageTemplates`: the message sent for each templated machine alarm. */
export function AlarmMessageTemplates() {
  return (
    <SavedSettings
      title={t('alarmTemplates.title')}
      lead={t('alarmTemplates.lead')}
      editHref={`${consolePaths.alarmMessageTemplates}/edit`}
      query={useTemplates()}
    >
      {(data) => (
        <dl className="details details--stacked">
          {alarmTemplateCodes.map((code) => (
            <DetailsItem
              key={code}
              term={
                <>
                  {codeLabel(code)}
                  {data.customised.includes(code) ? '' : t('alarmTemplates.defaultWording')}
                </>
              }
            >
              {data.templates[code]}
            </DetailsItem>
          ))}
        </dl>
      )}
    </SavedSettings>
  );
}

/** SPEC §2 `/alarmMessageTemplates/edit`. */
export function EditAlarmMessageTemplates() {
  return (
    <EditSettings title={t('alarmTemplates.editTitle')} query={useTemplates()}>
      {(data) => <TemplatesForm initial={data.templates} defaults={data.defaults} placeholders={data.placeholders} />}
    </EditSettings>
  );
}

function TemplatesForm({
  initial,
  defaults,
  placeholders,
}: {
  initial: Templates;
  defaults: Templates;
  placeholders: string[];
}) {
  const navigate = useNavigate();
  const [texts, setTexts] = useState(initial);
  const state = useSaveState('templates.');

  const save = async () => {
    const changed = Object.fromEntries(
      alarmTemplateCodes.filter((c) => texts[c] !== initial[c]).map((c) => [c, texts[c]]),
    );
    state.start();
    try {
      await rpc('globalSettings', 'updateAlarmMessageTemplates', { templates: changed });
      navigate(consolePaths.alarmMessageTemplates, { state: { notice: t('alarmTemplates.saved') } });
    } catch (e) {
      state.fail(e);
    }
  };

  return (
    <PageForm state={state} save={save} cancelHref={consolePaths.alarmMessageTemplates} wide>
      <p className="field__description">
        {t('alarmTemplates.placeholders', { list: placeholders.map((p) => `\${${p}}`).join(', ') })}
      </p>
      {alarmTemplateCodes.map((code) => (
        <TemplateField
          key={code}
          label={codeLabel(code)}
          name={code}
          value={texts[code]}
          defaultValue={defaults[code]}
          onChange={(v) => setTexts((before) => ({ ...before, [code]: v }))}
        />
      ))}
    </PageForm>
  );
}
