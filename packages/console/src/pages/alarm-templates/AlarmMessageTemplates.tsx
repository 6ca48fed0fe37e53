import { type AlarmTemplateCode, alarmTemplateCodes, machineAlerts } from '@medlocker/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { errorsOf, rpc } from '../../api/client.ts';
import { useQuery } from '../../api/queries.ts';
import { useFlashNotice } from '../../shell/flash.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { Form, FormActions } from '../../ui/Form.tsx';
import { Link } from '../../ui/Link.tsx';
import { Page } from '../../ui/Page.tsx';
import { QueryView } from '../../ui/QueryView.tsx';
import { TextArea } from '../../ui/TextArea.tsx';

type Templates = Record<AlarmTemplateCode, string>;

/** 'EM_0016 AlarmTriggered' → 'EM_0016 · Alarm triggered'. */
const codeLabel = (code: AlarmTemplateCode) =>
  `${code} · ${machineAlerts[code].name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/ (\w)/g, (_, c: string) => ` ${c.toLowerCase()}`)}`;

const useTemplates = () =>
  useQuery(
    (signal) => rpc('globalSettings', 'getAlarmMessageTemplates', {}, { signal }),
    ['globalSettings', 'getAlarmMessageTemplates'],
  );

/** SPEC §2 `/alarmMessageTemplates`: the message sent for each templated machine alarm. */
export function AlarmMessageTemplates() {
  const query = useTemplates();
  const notice = useFlashNotice();
  return (
    <Page
      title="Alarm Message Templates"
      lead="What staff are told when a machine raises one of these alarms."
      actions={
        <Link href="/alarmMessageTemplates/edit" variant="primary-button">
          Edit
        </Link>
      }
    >
      {notice && <Banner tone="success">{notice}</Banner>}
      <QueryView query={query}>
        {(data) => (
          <dl className="details details--stacked">
            {alarmTemplateCodes.map((code) => (
              <div key={code} className="details__item">
                <dt>
                  {codeLabel(code)}
                  {data.customised.includes(code) ? '' : ' (default wording)'}
                </dt>
                <dd>{data.templates[code]}</dd>
              </div>
            ))}
          </dl>
        )}
      </QueryView>
    </Page>
  );
}

/** SPEC §2 `/alarmMessageTemplates/edit`. */
export function EditAlarmMessageTemplates() {
  const query = useTemplates();
  return (
    <Page title="Edit Alarm Message Templates">
      <QueryView query={query}>
        {(data) => <TemplatesForm initial={data.templates} defaults={data.defaults} placeholders={data.placeholders} />}
      </QueryView>
    </Page>
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
  const [t, setT] = useState(initial);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);

  const submit = async () => {
    setError(undefined);
    setFieldErrors({});
    const changed = Object.fromEntries(alarmTemplateCodes.filter((c) => t[c] !== initial[c]).map((c) => [c, t[c]]));
    setPending(true);
    try {
      await rpc('globalSettings', 'updateAlarmMessageTemplates', { templates: changed });
      navigate('/alarmMessageTemplates', { state: { notice: 'Alarm message templates saved.' } });
    } catch (e) {
      setPending(false);
      const { fields, form } = errorsOf(e, 'templates.');
      setFieldErrors(fields);
      setError(form);
    }
  };

  return (
    <Form
      className="form--page form--wide"
      error={error}
      validationErrors={fieldErrors}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <p className="field__description">Placeholders: {placeholders.map((p) => `\${${p}}`).join(', ')}.</p>
      {alarmTemplateCodes.map((code) => (
        <div key={code} className="sms-template">
          <TextArea
            label={codeLabel(code)}
            name={code}
            value={t[code]}
            onChange={(v) => setT((before) => ({ ...before, [code]: v }))}
            rows={3}
          />
          {t[code] !== defaults[code] && (
            <Button variant="quiet" onPress={() => setT((before) => ({ ...before, [code]: defaults[code] }))}>
              Use the default wording
            </Button>
          )}
        </div>
      ))}
      <FormActions>
        <Link href="/alarmMessageTemplates" variant="button">
          Cancel
        </Link>
        <Button type="submit" variant="primary" isPending={pending}>
          Save
        </Button>
      </FormActions>
    </Form>
  );
}
