import type { PatientOrderDetails, PatientOrderSummary } from '@medlocker/core';
import { type FormEvent, type ReactNode, useRef, useState } from 'react';
import { ApiError, messageOf, rpc } from '../api.ts';
import { exemptionsOffered, formatPence, hrtOnly } from '../format.ts';
import { type ErrorItem, ErrorSummary, Page, TextField } from '../ui.tsx';
import { SignaturePad, type SignaturePadHandle } from './SignaturePad.tsx';

/** Where each field of the declaration is, for the error summary's links and the server's paths. */
const fieldIds: Record<string, string> = {
  exemptionCode: 'exemption-A',
  nameOfDeclarant: 'nameOfDeclarant',
  onBehalfOfPatient: 'behalf-self',
  signature: 'signature',
};

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
  const [behalf, setBehalf] = useState<'' | 'self' | 'behalf'>('');
  const [signed, setSigned] = useState(false);
  const [errors, setErrors] = useState<ErrorItem[]>([]);
  const [busy, setBusy] = useState(false);
  const pad = useRef<SignaturePadHandle>(null);
  const errorOf = (field: string) => errors.find((e) => e.field === fieldIds[field])?.message;
  const offered = exemptionsOffered(Date.now());

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const signature = pad.current?.toDataUrl() ?? null;
    const problems: ErrorItem[] = [];
    if (!code) problems.push({ field: fieldIds.exemptionCode, message: 'Select the exemption that applies' });
    if (!name.trim())
      problems.push({ field: fieldIds.nameOfDeclarant, message: 'Enter the full name of the person declaring' });
    if (!behalf) problems.push({ field: fieldIds.onBehalfOfPatient, message: 'Say whether you are the patient' });
    if (!signature) problems.push({ field: fieldIds.signature, message: 'Sign in the box' });
    setErrors(problems);
    if (problems.length > 0 || !signature) return;
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
      if (error instanceof ApiError && error.details.some((d) => d.path)) {
        setErrors(error.details.map((d) => ({ field: fieldIds[d.path] ?? undefined, message: d.message })));
      } else {
        setErrors([{ message: messageOf(error) }]);
      }
      setBusy(false);
    }
  }

  const codeError = errorOf('exemptionCode');
  const behalfError = errorOf('onBehalfOfPatient');
  const signatureError = errorOf('signature');
  return (
    <Page title="Declare an exemption" headerAction={props.headerAction}>
      <ErrorSummary errors={errors} />
      <h1>Declare an exemption</h1>
      <p>
        If you do not have to pay the {formatPence(order.prescriptionCharge)} prescription charge, tell us why. The
        pharmacy may ask to see proof.
      </p>
      {order.retailCharge > 0 && (
        <p>
          An exemption covers the NHS prescription charge only: the {formatPence(order.retailCharge)} for other items in
          this order still has to be paid by card.
        </p>
      )}
      <form onSubmit={submit} noValidate>
        <div className={`form-group${codeError ? ' form-group--error' : ''}`}>
          <fieldset aria-describedby={codeError ? 'exemption-error' : undefined}>
            <legend className="legend-heading">Why do you not have to pay?</legend>
            {codeError && (
              <span className="error-message" id="exemption-error">
                <span className="visually-hidden">Error:</span> {codeError}
              </span>
            )}
            {offered.map((e) => (
              <div className="choice" key={e.code}>
                <input
                  type="radio"
                  name="exemptionCode"
                  id={`exemption-${e.code}`}
                  value={e.code}
                  checked={code === e.code}
                  onChange={() => setCode(e.code)}
                  aria-describedby={hrtOnly(e.code) ? `exemption-${e.code}-hint` : undefined}
                />
                <label htmlFor={`exemption-${e.code}`}>
                  {e.code}: {capitalised(e.label)}
                </label>
                {hrtOnly(e.code) && (
                  <span className="hint" id={`exemption-${e.code}-hint`}>
                    Only for HRT (hormone replacement therapy) items
                  </span>
                )}
              </div>
            ))}
          </fieldset>
        </div>

        <TextField
          id="nameOfDeclarant"
          label="Full name of the person declaring"
          error={errorOf('nameOfDeclarant')}
          value={name}
          onChange={setName}
          autoComplete="name"
          maxLength={100}
        />

        <div className={`form-group${behalfError ? ' form-group--error' : ''}`}>
          <fieldset aria-describedby={behalfError ? 'behalf-error' : undefined}>
            <legend className="label">Are you the patient?</legend>
            {behalfError && (
              <span className="error-message" id="behalf-error">
                <span className="visually-hidden">Error:</span> {behalfError}
              </span>
            )}
            <div className="choice">
              <input
                type="radio"
                name="onBehalfOfPatient"
                id="behalf-self"
                checked={behalf === 'self'}
                onChange={() => setBehalf('self')}
              />
              <label htmlFor="behalf-self">Yes, I am the patient</label>
            </div>
            <div className="choice">
              <input
                type="radio"
                name="onBehalfOfPatient"
                id="behalf-behalf"
                checked={behalf === 'behalf'}
                onChange={() => setBehalf('behalf')}
              />
              <label htmlFor="behalf-behalf">No, I am declaring on behalf of the patient</label>
            </div>
          </fieldset>
        </div>

        <div className={`form-group${signatureError ? ' form-group--error' : ''}`}>
          <span className="label" id="signature-label">
            Signature
          </span>
          <span className="hint" id="signature-hint">
            Sign in the box with your finger or mouse.
          </span>
          {signatureError && (
            <span className="error-message" id="signature-error">
              <span className="visually-hidden">Error:</span> {signatureError}
            </span>
          )}
          <SignaturePad
            id="signature"
            ref={pad}
            labelledBy="signature-label"
            describedBy={`signature-hint${signatureError ? ' signature-error' : ''}`}
            invalid={Boolean(signatureError)}
            onChange={setSigned}
          />
          <button
            className="button button--secondary"
            type="button"
            id="signature-clear"
            onClick={() => pad.current?.clear()}
            disabled={!signed}
          >
            Clear signature
          </button>
        </div>

        <div className="panel">
          <p>
            I declare that the information I have given is correct and complete, and I understand that if it is not,
            appropriate action may be taken.
          </p>
        </div>

        <div className="actions">
          <button className="button" type="submit" disabled={busy}>
            Declare and continue
          </button>
          <button className="link-button" type="button" onClick={props.onCancel}>
            Go back to your order
          </button>
        </div>
      </form>
    </Page>
  );
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
