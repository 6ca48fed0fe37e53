import type { PatientOrderDetails, PatientOrderSummary } from '@medlocker/core';
import { type FormEvent, type ReactNode, type RefObject, useRef, useState } from 'react';
import { rpc } from '../api.ts';
import {
  type ErrorItem,
  ErrorMessage,
  ErrorSummary,
  errorFor,
  errorsOf,
  Fieldset,
  FormActions,
  TextField,
} from '../form.tsx';
import { exemptionLabel, exemptionsOffered, formatPence, hrtOnly } from '../format.ts';
import { t } from '../i18n/index.ts';
import { Page } from '../ui.tsx';
import { SignaturePad, type SignaturePadHandle } from './SignaturePad.tsx';

/** Where each field of the declaration is, for the error summary's links and the server's paths. */
const fieldIds: Record<string, string> = {
  exemptionCode: 'exemption-A',
  nameOfDeclarant: 'nameOfDeclarant',
  onBehalfOfPatient: 'behalf-self',
  signature: 'signature',
};

type Behalf = '' | 'self' | 'behalf';

/** What is missing from the declaration before it can be sent. */
function problemsOf(code: string, name: string, behalf: Behalf, signature: string | null): ErrorItem[] {
  const problems: ErrorItem[] = [];
  if (!code) problems.push({ field: fieldIds.exemptionCode, message: t('exemption.errorCode') });
  if (!name.trim()) problems.push({ field: fieldIds.nameOfDeclarant, message: t('exemption.errorName') });
  if (!behalf) problems.push({ field: fieldIds.onBehalfOfPatient, message: t('exemption.errorBehalf') });
  if (!signature) problems.push({ field: fieldIds.signature, message: t('exemption.errorSignature') });
  return problems;
}

/**
 * The NHS exemption declaration (REFERENCE.md): which exemption applies (SPEC §5's codes with the
 * FP10's descriptions; M only before 6 April 2025, W for HRT items only), who declares and whether on
 * the patient's behalf, and a drawn signature. The server's answer to each field is shown beside it.
 */
export function DeclareExemption(props: {
  details: PatientOrderDetails;
  headerAction?: ReactNode;
  onCancel: () => void;
  onDeclared: (order: PatientOrderSummary) => void;
}) {
  const { order } = props.details;
  const [code, setCode] = useState('');
  const [name, setName] = useState('');
  const [behalf, setBehalf] = useState<Behalf>('');
  const [errors, setErrors] = useState<ErrorItem[]>([]);
  const [busy, setBusy] = useState(false);
  const pad = useRef<SignaturePadHandle>(null);
  const errorOf = (field: string) => errorFor(errors, fieldIds[field] ?? field);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const signature = pad.current?.toDataUrl() ?? null;
    const problems = problemsOf(code, name, behalf, signature);
    setErrors(problems);
    if (problems.length > 0 || !signature) return;
    // Busy until the order's page takes over: a second press must not declare twice.
    setBusy(true);
    try {
      const done = await rpc('checkout', 'declareExemption', {
        orderId: order.id,
        exemptionCode: code as NonNullable<PatientOrderSummary['exemptionCode']>,
        nameOfDeclarant: name.trim(),
        onBehalfOfPatient: behalf === 'behalf',
        signature,
      });
      props.onDeclared(done.order);
    } catch (error) {
      setErrors(errorsOf(error, (path) => fieldIds[path] ?? undefined));
      setBusy(false);
    }
  }

  return (
    <Page title={t('exemption.declare')} headerAction={props.headerAction}>
      <ErrorSummary errors={errors} />
      <h1>{t('exemption.declare')}</h1>
      <Intro order={order} />
      <form onSubmit={submit} noValidate>
        <ExemptionChoice code={code} onChange={setCode} error={errorOf('exemptionCode')} />
        <TextField
          id="nameOfDeclarant"
          label={t('exemption.name')}
          error={errorOf('nameOfDeclarant')}
          value={name}
          onChange={setName}
          autoComplete="name"
          maxLength={100}
        />
        <BehalfChoice behalf={behalf} onChange={setBehalf} error={errorOf('onBehalfOfPatient')} />
        <SignatureField pad={pad} name={name} error={errorOf('signature')} />
        <div className="panel">
          <p>{t('exemption.statement')}</p>
        </div>
        <FormActions submit={t('exemption.submit')} busy={busy}>
          <button className="link-button" type="button" onClick={props.onCancel}>
            {t('exemption.back')}
          </button>
        </FormActions>
      </form>
    </Page>
  );
}

/** What a declaration waives, and what it does not. */
function Intro({ order }: { order: PatientOrderSummary }) {
  return (
    <>
      <p>{t('exemption.intro', { charge: formatPence(order.prescriptionCharge) })}</p>
      {order.retailCharge > 0 && <p>{t('exemption.chargeOnly', { other: formatPence(order.retailCharge) })}</p>}
    </>
  );
}

/** One radio button with its label, and a hint under it when there is one. */
function Choice(props: {
  name: string;
  id: string;
  value?: string;
  checked: boolean;
  onChange: () => void;
  label: ReactNode;
  hint?: string;
}) {
  return (
    <div className="choice">
      <input
        type="radio"
        name={props.name}
        id={props.id}
        value={props.value}
        checked={props.checked}
        onChange={props.onChange}
        aria-describedby={props.hint ? `${props.id}-hint` : undefined}
      />
      <label htmlFor={props.id}>{props.label}</label>
      {props.hint && (
        <span className="hint" id={`${props.id}-hint`}>
          {props.hint}
        </span>
      )}
    </div>
  );
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The exemptions a patient may declare today (M only before it ended), W with its HRT-only hint. */
function ExemptionChoice(props: { code: string; onChange: (code: string) => void; error?: string }) {
  return (
    <Fieldset
      legend={t('exemption.why')}
      legendClassName="legend-heading"
      error={props.error}
      errorId="exemption-error"
    >
      {exemptionsOffered(Date.now()).map((e) => (
        <Choice
          key={e.code}
          name="exemptionCode"
          id={`exemption-${e.code}`}
          value={e.code}
          checked={props.code === e.code}
          onChange={() => props.onChange(e.code)}
          label={`${e.code}: ${capitalised(exemptionLabel(e.code))}`}
          hint={hrtOnly(e.code) ? t('exemption.hrtOnly') : undefined}
        />
      ))}
    </Fieldset>
  );
}

const behalfChoices = [
  ['self', 'exemption.self'],
  ['behalf', 'exemption.behalf'],
] as const;

function BehalfChoice(props: { behalf: Behalf; onChange: (behalf: Behalf) => void; error?: string }) {
  return (
    <Fieldset legend={t('exemption.areYou')} legendClassName="label" error={props.error} errorId="behalf-error">
      {behalfChoices.map(([value, label]) => (
        <Choice
          key={value}
          name="onBehalfOfPatient"
          id={`behalf-${value}`}
          checked={props.behalf === value}
          onChange={() => props.onChange(value)}
          label={t(label)}
        />
      ))}
    </Fieldset>
  );
}

/**
 * The signature box with its label, hint and error; Clear once something is drawn, and, once a name is
 * typed above, signing with it (a keyboard's way to sign).
 */
function SignatureField({
  pad,
  name,
  error,
}: {
  pad: RefObject<SignaturePadHandle | null>;
  name: string;
  error?: string;
}) {
  const [signed, setSigned] = useState(false);
  return (
    <div className={`form-group${error ? ' form-group--error' : ''}`}>
      <span className="label" id="signature-label">
        {t('exemption.signature')}
      </span>
      <span className="hint" id="signature-hint">
        {t('exemption.signatureHint')}
      </span>
      {error && <ErrorMessage id="signature-error" message={error} />}
      <SignaturePad
        id="signature"
        ref={pad}
        labelledBy="signature-label"
        describedBy={`signature-hint${error ? ' signature-error' : ''}`}
        invalid={Boolean(error)}
        onChange={setSigned}
      />
      <button
        className="button button--secondary"
        type="button"
        id="signature-clear"
        onClick={() => pad.current?.clear()}
        disabled={!signed}
      >
        {t('exemption.clearSignature')}
      </button>
      <button
        className="button button--secondary"
        type="button"
        id="signature-typed"
        onClick={() => pad.current?.signWith(name)}
        disabled={!name.trim()}
      >
        {t('exemption.signWithName')}
      </button>
    </div>
  );
}
