import { formatDate, type Patient, whatsAppOptInCodes } from '@medlocker/core';
import { useMemo, useState } from 'react';
import { ApiError, messageOf, rpc } from '../../api/client.ts';
import { queryClient, useRpcQuery } from '../../api/queries.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { DetailsItem } from '../../ui/Details.tsx';
import { ConfirmDialog, Dialog, DialogFooter } from '../../ui/Dialog.tsx';
import { Form } from '../../ui/Form.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { useAction } from '../../ui/use-action.ts';
import { t } from './i18n/index.ts';

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
  const settings = useRpcQuery(['businessSettings', 'getBusinessFeatureSettings', businessId], { businessId });
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
      setNotice(t('patients.whatsApp.optedOut'));
    });
    setOptingOut(false);
  };

  return (
    <DetailsItem term={t('patients.whatsApp.label')}>
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
              setNotice(t('patients.whatsApp.optedIn'));
            }
          }}
        />
      )}
      <ConfirmDialog
        title={t('patients.whatsApp.optOutTitle')}
        isOpen={optingOut}
        onOpenChange={(open) => !open && !sending && setOptingOut(false)}
        cancelLabel={t('patients.whatsApp.keep')}
        confirmLabel={t('patients.whatsApp.optOut')}
        onConfirm={() => void optOut()}
        isPending={sending}
      >
        <p>{t('patients.whatsApp.optOutBody', { name: patient.name })}</p>
      </ConfirmDialog>
    </DetailsItem>
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
        <div>{t('patients.whatsApp.notOptedIn')}</div>
        {canSend && (
          <Button variant="secondary" onPress={onSend} isPending={sending}>
            {t('patients.whatsApp.sendCode')}
          </Button>
        )}
      </>
    );
  }
  return (
    <>
      <div>
        {t('patients.whatsApp.optedInOn', { mobile: nationalMobile(optIn.mobileNumber), date: formatDate(optIn.at) })}
      </div>
      {optIn.byDisplayName && (
        <div className="field__description">{t('patients.whatsApp.recordedBy', { name: optIn.byDisplayName })}</div>
      )}
      {!deleted && (
        <Button variant="secondary" onPress={onOptOut}>
          {t('patients.whatsApp.optOut')}
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
    <Dialog title={t('patients.whatsApp.codeTitle')} isOpen onOpenChange={(open) => !open && !pending && onClose()}>
      <Form validationErrors={validationErrors} guardUnsaved={false} error={formError} submit={verify}>
        <CodeField sentTo={sent.sentTo} code={code} onCode={setCode} />
        <DialogFooter onCancel={() => onClose()} pending={pending} submitLabel={t('patients.whatsApp.optIn')}>
          <Button onPress={() => void resend()} isDisabled={pending}>
            {t('patients.whatsApp.sendNewCode')}
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
      <p>{t('patients.whatsApp.codeSent', { sentTo, minutes: whatsAppOptInCodes.ttlMinutes })}</p>
      <TextField
        label={t('patients.whatsApp.code')}
        name="code"
        description={t('patients.whatsApp.codeHint', { digits: whatsAppOptInCodes.digits })}
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
