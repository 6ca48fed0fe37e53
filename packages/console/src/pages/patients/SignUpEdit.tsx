import type { PatientSignUp, SignUpForm } from '@medlocker/core';
import { messageOf, rpc } from '../../api/client.ts';
import { useRpcQuery } from '../../api/queries.ts';
import { Button } from '../../ui/Button.tsx';
import { ConfirmAction, Dialog, DialogFooter } from '../../ui/Dialog.tsx';
import { Form } from '../../ui/Form.tsx';
import { Loading } from '../../ui/Page.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { useSubmit } from '../../ui/use-submit.ts';
import { t } from './i18n/index.ts';
import { DetailFields, detailFieldName, filledAddressOf, isoDateOf, textOf } from './patient-fields.tsx';

/** The form as the contract takes it: a blank field is null, so the server clears it. */
function signUpFormOf(data: FormData): typeof SignUpForm.inferIn {
  const orNull = (name: string) => textOf(data, name) || null;
  const address = filledAddressOf(data);
  const dateOfBirth = orNull('dateOfBirth');
  return {
    firstName: textOf(data, 'firstName'),
    lastName: textOf(data, 'lastName'),
    dateOfBirth: dateOfBirth === null ? null : isoDateOf(dateOfBirth),
    email: orNull('email'),
    mobileNumber: orNull('mobileNumber'),
    address: Object.keys(address).length > 0 ? address : null,
  };
}

/**
 * Corrects a sign-up that is not yet a patient (often: adds the mobile a patient needs). The details
 * are read again when the dialog opens, and the server checks them with SPEC §5's form rules; its
 * messages show beside each field. `onClose` gets the saved sign-up, or nothing when cancelled.
 */
export function EditSignUpDialog({
  signUp,
  onClose,
}: {
  signUp: PatientSignUp;
  onClose: (saved?: PatientSignUp) => void;
}) {
  const query = useRpcQuery(['signUps', 'get', signUp.id], { id: signUp.id });
  const { pending, formProps } = useSubmit(detailFieldName);
  const current = query.data?.signUp;

  return (
    <Dialog
      title={t('patients.signUps.editTitle', { name: `${signUp.firstName} ${signUp.lastName}` })}
      isOpen
      onOpenChange={(open) => !open && !pending && onClose()}
    >
      {!current ? (
        <>
          {query.error ? (
            <p className="dialog__error" role="alert">
              {messageOf(query.error)}
            </p>
          ) : (
            <Loading />
          )}
          <div className="dialog__actions">
            <Button onPress={() => onClose()}>{t('patients.signUps.cancel')}</Button>
          </div>
        </>
      ) : (
        <Form
          {...formProps(async (data) => {
            const saved = await rpc('signUps', 'update', { id: signUp.id, signUp: signUpFormOf(data) });
            onClose(saved.signUp);
          })}
        >
          <p>{t('patients.signUps.reverify')}</p>
          <TextField
            label={t('patients.signUps.firstName')}
            name="firstName"
            isRequired
            defaultValue={current.firstName}
            autoFocus
          />
          <TextField
            label={t('patients.signUps.lastName')}
            name="lastName"
            isRequired
            defaultValue={current.lastName}
          />
          <DetailFields value={current} mobileDescription={t('patients.signUps.mobileHint')} />
          <DialogFooter onCancel={() => onClose()} pending={pending} submitLabel={t('patients.signUps.save')} />
        </Form>
      )}
    </Dialog>
  );
}

/** Deleting a sign-up removes it for good (it is not a patient yet, so nothing else refers to it). */
export function DeleteSignUpDialog({
  signUp,
  onClose,
}: {
  signUp: PatientSignUp;
  onClose: (deleted: boolean) => void;
}) {
  return (
    <ConfirmAction
      title={t('patients.signUps.deleteTitle')}
      cancelLabel={t('patients.signUps.deleteKeep')}
      confirmLabel={t('patients.signUps.deleteConfirm')}
      action={() => rpc('signUps', 'delete', { id: signUp.id })}
      onDone={() => onClose(true)}
      onCancel={() => onClose(false)}
    >
      <p>{t('patients.signUps.deleteBody', { name: `${signUp.firstName} ${signUp.lastName}` })}</p>
    </ConfirmAction>
  );
}
