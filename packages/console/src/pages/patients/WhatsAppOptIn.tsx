import { formatDate, type Patient, whatsAppOptInCodes } from '@medlocker/core';
import { useMemo, useState } from 'react';
import { ApiError, messageOf, rpc } from '../../api/client.ts';
import { queryClient, useQuery } from '../../api/queries.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { ConfirmDialog, Dialog } from '../../ui/Dialog.tsx';
import { Form } from '../../ui/Form.tsx';
import { TextField } from '../../ui/TextField.tsx';

/** +447700900123 as people write it: 07700 900123. */
export const nationalMobile = (e164: string) =>
  e164.startsWith('+44') ? `0${e164.slice(3, 7)} ${e164.slice(7)}` : e164;

type Sent = { sentTo: string; expiresAt: number };

/**
 * The patient page's WhatsApp row: opted in (on which number, since when, by whom) with Opt out, or
 * "Not opted in" with "Send WhatsApp code" when the business enables WhatsApp and the patient has a
 * mobile. The code goes to the patient's phone by WhatsApp; they read it out and staff type it into
 * the dialog (users.verifyWhatsAppOptInMessage), which opts them in.
 */
export function WhatsAppOptIn({ businessId, patient }: { businessId: string; patient: Patient }) {
  const settings = useQuery(
    (signal) => rpc('businessSettings', 'getBusinessFeatureSettings', { businessId }, { signal }),
    ['businessSettings', 'getBusinessFeatureSettings', businessId],
  );
  const [sent, setSent] = useState<Sent>();
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const [optingOut, setOptingOut] = useState(false);

  const enabled = settings.data?.settings.enableWhatsApp === true;
  const optIn = patient.whatsAppOptIn;
  const canSend = enabled && !optIn && Boolean(patient.mobileNumber) && !patient.deleted;

  const show = (next: Patient) => queryClient.setQueryData(['patients', 'get', patient.id], { patient: next });

  const send = async () => {
    setSending(true);
    setError(undefined);
    setNotice(undefined);
    try {
      setSent(await rpc('users', 'addWhatsAppOptIn', { patientId: patient.id }));
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setSending(false);
    }
  };

  const optOut = async () => {
    setSending(true);
    try {
      const { patient: next } = await rpc('users', 'removeWhatsAppOptIn', { patientId: patient.id });
      show(next);
      setOptingOut(false);
      setNotice('Opted out: their messages go by text or email again.');
    } catch (e) {
      setError(messageOf(e));
      setOptingOut(false);
    } finally {
      setSending(false);
    }
  };

  return (
    <div className="details__item">
      <dt>WhatsApp</dt>
      <dd>
        {optIn ? (
          <>
            <div>
              Opted in on {nationalMobile(optIn.mobileNumber)} since {formatDate(optIn.at)}
            </div>
            {optIn.byDisplayName && <div className="field__description">Recorded by {optIn.byDisplayName}</div>}
            {!patient.deleted && (
              <Button variant="secondary" onPress={() => setOptingOut(true)}>
                Opt out
              </Button>
            )}
          </>
        ) : (
          <>
            <div>Not opted in</div>
            {canSend && (
              <Button variant="secondary" onPress={() => void send()} isPending={sending}>
                Send WhatsApp code
              </Button>
            )}
          </>
        )}
        {error && <Banner tone="error">{error}</Banner>}
        {notice && <Banner tone="success">{notice}</Banner>}
        {sent && (
          <CodeDialog
            patientId={patient.id}
            sent={sent}
            onResent={setSent}
            onClose={(next) => {
              setSent(undefined);
              if (next) {
                show(next);
                setNotice('Opted in: their messages now go by WhatsApp.');
              }
            }}
          />
        )}
        <ConfirmDialog
          title="Opt out of WhatsApp?"
          isOpen={optingOut}
          onOpenChange={(open) => !open && !sending && setOptingOut(false)}
          cancelLabel="Keep WhatsApp"
          confirmLabel="Opt out"
          onConfirm={() => void optOut()}
          isPending={sending}
        >
          <p>{patient.name}'s messages will go by text or email instead.</p>
        </ConfirmDialog>
      </dd>
    </div>
  );
}

/** Enter the code the patient reads out; a wrong or expired one is said beside the field. */
function CodeDialog({
  patientId,
  sent,
  onResent,
  onClose,
}: {
  patientId: string;
  sent: Sent;
  onResent: (sent: Sent) => void;
  onClose: (patient?: Patient) => void;
}) {
  const [code, setCode] = useState('');
  // An object per refusal, so the same words twice in a row still show again.
  const [error, setError] = useState<{ message: string }>();
  const [formError, setFormError] = useState<string>();
  const validationErrors = useMemo((): Record<string, string> => (error ? { code: error.message } : {}), [error]);
  const [pending, setPending] = useState(false);

  const verify = async () => {
    setError(undefined);
    setFormError(undefined);
    setPending(true);
    try {
      const { patient } = await rpc('users', 'verifyWhatsAppOptInMessage', { patientId, code });
      onClose(patient);
    } catch (e) {
      const onCode = e instanceof ApiError ? e.fieldErrors.code : undefined;
      if (onCode) setError({ message: onCode });
      else setFormError(messageOf(e));
      setPending(false);
    }
  };

  const resend = async () => {
    setError(undefined);
    setFormError(undefined);
    try {
      onResent(await rpc('users', 'addWhatsAppOptIn', { patientId }));
      setCode('');
    } catch (e) {
      setFormError(messageOf(e));
    }
  };

  return (
    <Dialog title="Enter WhatsApp code" isOpen onOpenChange={(open) => !open && !pending && onClose()}>
      <Form
        validationErrors={validationErrors}
        guardUnsaved={false}
        error={formError}
        onSubmit={(event) => {
          event.preventDefault();
          void verify();
        }}
      >
        <div className="dialog__body">
          <p>
            A code was sent by WhatsApp to {sent.sentTo}. Ask the patient to read it out; it works for{' '}
            {whatsAppOptInCodes.ttlMinutes} minutes.
          </p>
          <TextField
            label="Code"
            name="code"
            description={`The ${whatsAppOptInCodes.digits}-digit code, e.g. 123 456.`}
            value={code}
            onChange={setCode}
            autoFocus
            isRequired
            inputMode="numeric"
            autoComplete="one-time-code"
          />
        </div>
        <div className="dialog__actions">
          <Button onPress={() => onClose()} isDisabled={pending}>
            Cancel
          </Button>
          <Button onPress={() => void resend()} isDisabled={pending}>
            Send a new code
          </Button>
          <Button type="submit" variant="primary" isPending={pending}>
            Opt in
          </Button>
        </div>
      </Form>
    </Dialog>
  );
}
