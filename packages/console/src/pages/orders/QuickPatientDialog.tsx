import type { BusinessFeatureSettings, Patient } from '@medlocker/core';
import { rpc } from '../../api/client.ts';
import { queryClient } from '../../api/queries.ts';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Form, FormActions } from '../../ui/Form.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { useSubmit } from '../../ui/use-submit.ts';
import { basicPatientOf, detailFieldName } from '../patients/patient-fields.tsx';
import { t } from './i18n/index.ts';

type DisplayIdField = BusinessFeatureSettings['displayIdField'];

/**
 * 'New patient' from the create-order form: the few details an order needs (ID, name, mobile for the
 * PIN message, date of birth and email optional), created with patients/create under the same server
 * rules as the patient pages. The ID's label and whether it is required or an NHS number follow the
 * business's displayIdField setting; the server checks it either way. The new patient is handed back.
 */
export function QuickPatientDialog({
  businessId,
  displayIdField,
  isOpen,
  onOpenChange,
  onCreated,
}: {
  businessId: string;
  displayIdField: DisplayIdField;
  isOpen: boolean;
  onOpenChange: (isOpen: boolean) => void;
  onCreated: (patient: Patient) => void;
}) {
  return (
    <Dialog title={t('orders.quickPatient.title')} isOpen={isOpen} onOpenChange={onOpenChange}>
      {/* Mounted with the dialog, so each opening starts blank, without the last one's messages. */}
      <QuickPatientForm
        businessId={businessId}
        displayIdField={displayIdField}
        onCancel={() => onOpenChange(false)}
        onCreated={onCreated}
      />
    </Dialog>
  );
}

function QuickPatientForm({
  businessId,
  displayIdField,
  onCancel,
  onCreated,
}: {
  businessId: string;
  displayIdField: DisplayIdField;
  onCancel: () => void;
  onCreated: (patient: Patient) => void;
}) {
  const { pending, formProps } = useSubmit(detailFieldName);
  return (
    <Form
      {...formProps(async (data) => {
        const { patient } = await rpc('patients', 'create', { businessId, patient: basicPatientOf(data) });
        void queryClient.invalidateQueries({ queryKey: ['patients'] });
        onCreated(patient);
      })}
    >
      <TextField
        label={displayIdField.name}
        name="displayId"
        isRequired={displayIdField.required}
        description={displayIdField.validateNhsNumber ? t('orders.quickPatient.nhsNumber') : undefined}
        autoFocus
      />
      <TextField label={t('orders.quickPatient.name')} name="name" isRequired />
      <TextField
        label={t('orders.quickPatient.mobile')}
        name="mobileNumber"
        isRequired
        description={t('orders.quickPatient.mobileHint')}
      />
      <TextField
        label={t('orders.quickPatient.dateOfBirth')}
        name="dateOfBirth"
        description={t('orders.quickPatient.dateHint')}
      />
      <TextField label={t('orders.quickPatient.email')} name="email" type="email" />
      <FormActions>
        <Button type="submit" variant="primary" isPending={pending}>
          {t('orders.quickPatient.submit')}
        </Button>
        <Button onPress={onCancel} isDisabled={pending}>
          {t('orders.quickPatient.cancel')}
        </Button>
      </FormActions>
    </Form>
  );
}
