import { formatDate, type Patient, whatsAppOptInCodes } from '@medlocker/core';
import { useMemo, useState } from 'react';
import { ApiError, messageOf, rpc } from '../../api/client.ts';
import { queryClient, useQuery } from '../../api/queries.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { ConfirmDialog, Dialog, DialogFooter } from '../../ui/Dialog.tsx';
import { Form } from '../../ui/Form.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { useAction } from '../../ui/use-action.ts';

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
  const { pending: sending, error, run } = useAction();
  const [notice, setNotice] = useState<string>();
  const [optingOut, setOptingOut] = useState(false);

  const enabled = settings.data?.settings.enableWhatsApp === true;
  const optIn = patient.whatsAppOptIn;
  const canSend = enabled && !optIn && Boolean(patient.mobileNumber) && !patient.deleted;

  const show = (next: Patient) => queryClient.setQueryData(['patients', 'get', patient.id], { patient: next });

  const send = () => {
    setNotice(undefined);
    return run(async () => setSent(await rpc('users', 'addWhatsAppOptIn', { patientId: patient.id })));
  };

  const optOut = async () => {
    await run(async () => {
      show((await rpc('users', 'removeWhatsAppOptIn', { patientId: patient.id })).patient);
      setNotice('Opted out: their messages go by text or email again.');
    });
    setOptingOut(false);
  };

  return (
    <div className="details__item">
      <dt>WhatsApp</dt>
      <dd>
        <OptInState
          optIn={optIn}
          deleted={Boolean(patient.deleted)}
          canSend={canSend}
          sending={sending}
          onSend={() => void send()}
          onOptOut={() => setOptingOut(true)}
        />
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

/** Opted in (on which number, since when, by whom) with Opt out; or not, with Send WhatsApp code. */
function OptInState({
  optIn,
  deleted,
  canSend,
  sending,
  onSend,
  onOptOut,
}: {
  optIn: Patient['whatsAppOptIn'];
  deleted: boolean;
  canSend: boolean;
  sending: boolean;
  onSend: () => void;
  onOptOut: () => void;
}) {
  if (!optIn) {
    return (
      <>
        <div>Not opted in</div>
        {canSend && (
          <Button variant="secondary" onPress={onSend} isPending={sending}>
            Send WhatsApp code
          </Button>
        )}
      </>
    );
  }
  return (
    <>
      <div>
        Opted in on {nationalMobile(optIn.mobileNumber)} since {formatDate(optIn.at)}
      </div>
      {optIn.byDisplayName && <div className="field__description">Recorded by {optIn.byDisplayName}</div>}
      {!deleted && (
        <Button variant="secondary" onPress={onOptOut}>
          Opt out
        </Button>
      )}
    </>
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
      <Form validationErrors={validationErrors} guardUnsaved={false} error={formError} submit={verify}>
        <CodeField sentTo={sent.sentTo} code={code} onCode={setCode} />
        <DialogFooter onCancel={() => onClose()} pending={pending}>
          <Button onPress={() => void resend()} isDisabled={pending}>
            Send a new code
          </Button>
          <Button type="submit" variant="primary" isPending={pending}>
            Opt in
          </Button>
        </DialogFooter>
      </Form>
    </Dialog>
  );
}

/** Where the code went, how long it works, and the field for it. */
function CodeField({ sentTo, code, onCode }: { sentTo: string; code: string; onCode: (code: string) => void }) {
  return (
    <div className="dialog__body">
      <p>
        A code was sent by WhatsApp to {sentTo}. Ask the patient to read it out; it works for{' '}
        {whatsAppOptInCodes.ttlMinutes} minutes.
      </p>
      <TextField
        label="Code"
        name="code"
        description={`The ${whatsAppOptInCodes.digits}-digit code, e.g. 123 456.`}
        value={code}
        onChange={onCode}
        autoFocus
        isRequired
        inputMode="numeric"
        autoComplete="one-time-code"
      />
    </div>
  );
}
