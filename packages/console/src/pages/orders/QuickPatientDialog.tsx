import type { BusinessFeatureSettings, Patient } from '@medlocker/core';
import { rpc } from '../../api/client.ts';
import { queryClient } from '../../api/queries.ts';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Form, FormActions } from '../../ui/Form.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { useSubmit } from '../../ui/use-submit.ts';
import { basicPatientOf, detailFieldName } from '../patients/patient-fields.tsx';

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
    <Dialog title="New patient" isOpen={isOpen} onOpenChange={onOpenChange}>
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
  const { fieldErrors, error, pending, onSubmit } = useSubmit(detailFieldName);
  return (
    <Form
      error={error}
      validationErrors={fieldErrors}
      onSubmit={onSubmit(async (data) => {
        const { patient } = await rpc('patients', 'create', { businessId, patient: basicPatientOf(data) });
        void queryClient.invalidateQueries({ queryKey: ['patients'] });
        onCreated(patient);
      })}
    >
      <TextField
        label={displayIdField.name}
        name="displayId"
        isRequired={displayIdField.required}
        description={displayIdField.validateNhsNumber ? 'NHS/CHI number, 10 digits' : undefined}
        autoFocus
      />
      <TextField label="Name" name="name" isRequired />
      <TextField label="Mobile" name="mobileNumber" isRequired description="UK mobile, for the PIN message" />
      <TextField label="Date of birth" name="dateOfBirth" description="DD-MM-YYYY" />
      <TextField label="Email" name="email" type="email" />
      <FormActions>
        <Button type="submit" variant="primary" isPending={pending}>
          Add patient
        </Button>
        <Button onPress={onCancel} isDisabled={pending}>
          Cancel
        </Button>
      </FormActions>
    </Form>
  );
}
