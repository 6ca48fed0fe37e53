import { type BusinessFeatureSettings, maxCollectionWindowDays } from '@medlocker/core';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { rpc } from '../../api/client.ts';
import { queryClient } from '../../api/queries.ts';
import { orderPaths } from '../../paths.ts';
import { Button } from '../../ui/Button.tsx';
import { Form, FormActions } from '../../ui/Form.tsx';
import { Link } from '../../ui/Link.tsx';
import { NumberField } from '../../ui/NumberField.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { useSubmit } from '../../ui/use-submit.ts';
import { generateBarcode } from './barcode.ts';
import { t } from './i18n/index.ts';
import { MachinePicker, machineChoiceOf, useBusinessMachines } from './MachinePicker.tsx';
import { orderPayloadOf } from './order-payload.ts';
import { PatientPicker, type PickedPatient, pickedPatientOf } from './PatientPicker.tsx';
import { QuickPatientDialog } from './QuickPatientDialog.tsx';

/** Where a new order leads: with "Print barcodes automatically", the print of its label; else its page. */
const afterCreate = (settings: BusinessFeatureSettings, businessId: string, orderId: string) =>
  settings.autoBarcodes.autoPrint ? orderPaths.labels(businessId, [orderId]) : orderPaths.order(businessId, orderId);

/**
 * The create-order form (SPEC §5 order create): patient (searched, or added on the spot), barcode,
 * machine, collection window and, when the business takes them, charges. The server checks every field
 * and its messages land beside the field they name; a created order opens its own page (or, with
 * autoBarcodes.autoPrint, the print of its bag label).
 */
export function OrderForm({ businessId, settings }: { businessId: string; settings: BusinessFeatureSettings }) {
  const navigate = useNavigate();
  const [patient, setPatient] = useState<PickedPatient | null>(null);
  const [machineId, setMachineId] = useState<string | null>(null);
  const [addingPatient, setAddingPatient] = useState(false);
  const autoBarcode = settings.autoBarcodes.autoGenerate;
  const [barcode, setBarcode] = useState(() => (autoBarcode ? generateBarcode() : ''));
  const machines = useBusinessMachines(businessId);
  const { fieldErrors, error, pending, onSubmit } = useSubmit();
  const prescriptionCharges = settings.charges.enabled;
  const retailCharges = settings.retailCharges.enabled;
  const machineChoice = machineChoiceOf(machineId, machines.data);
  // The patient and machine the last submit sent: their pickers show the server's message about them
  // only until another pick (a pick fires no input event, so the Form could not clear it itself).
  const [sent, setSent] = useState<{ patientId: string | null; machineId: string }>();
  const patientError = sent?.patientId === (patient?.id ?? null) ? fieldErrors.patientId : undefined;
  const machineError = sent?.machineId === machineChoice ? fieldErrors.machineId : undefined;
  // Memoised per answer: the Form forgets which messages typing has cleared when handed a new object.
  const typedErrors = useMemo(() => {
    const { patientId: _patient, machineId: _machine, ...typed } = fieldErrors;
    return typed;
  }, [fieldErrors]);

  const create = async (data: FormData) => {
    const choices = { patientId: patient?.id ?? null, machineId: machineChoice };
    setSent(choices);
    const input = orderPayloadOf(data, { businessId, ...choices, prescriptionCharges, retailCharges });
    const { order } = await rpc('orders', 'create', input);
    void queryClient.invalidateQueries({ queryKey: ['orders'] });
    navigate(afterCreate(settings, businessId, order.id), {
      state: { notice: t('orders.create.created', { reference: order.reference }) },
    });
  };

  return (
    <>
      <Form className="form--page" error={error} validationErrors={typedErrors} onSubmit={onSubmit(create)}>
        <PatientPicker businessId={businessId} selected={patient} onChange={setPatient} errorMessage={patientError} />
        <div className="button-row">
          {patient && <span className="field__description">{patient.detail}</span>}
          <Button variant="quiet" onPress={() => setAddingPatient(true)}>
            {t('orders.create.newPatient')}
          </Button>
        </div>
        <BarcodeField generated={autoBarcode} value={barcode} onChange={setBarcode} />
        <MachinePicker businessId={businessId} chosen={machineId} onChange={setMachineId} errorMessage={machineError} />
        <NumberField
          label={t('orders.create.collectionWindow')}
          name="collectionWindow"
          defaultValue={settings.orderCollection.defaultCollectionWindow}
          minValue={1}
          maxValue={maxCollectionWindowDays}
          step={1}
          description={t('orders.create.collectionWindowHint', { max: maxCollectionWindowDays })}
        />
        <ChargeFields prescription={prescriptionCharges} retail={retailCharges} />
        <FormActions>
          <Button type="submit" variant="primary" isPending={pending}>
            {t('orders.create.submit')}
          </Button>
          <Link href={orderPaths.list(businessId)} variant="button">
            {t('orders.create.cancel')}
          </Link>
        </FormActions>
      </Form>
      {/* Outside the order's form: its own form's submit must not bubble (through the portal) into this one. */}
      <QuickPatientDialog
        businessId={businessId}
        displayIdField={settings.displayIdField}
        isOpen={addingPatient}
        onOpenChange={setAddingPatient}
        onCreated={(created) => {
          setPatient(pickedPatientOf(created));
          setAddingPatient(false);
        }}
      />
    </>
  );
}

/** The bag's barcode: scanned or typed, or generated for the order when the business asks for that. */
function BarcodeField({
  generated,
  value,
  onChange,
}: {
  generated: boolean;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <>
      <TextField
        label={t('orders.create.barcode')}
        name="barcode"
        isRequired
        value={value}
        onChange={onChange}
        description={generated ? t('orders.create.barcodeGenerated') : undefined}
      />
      {generated && (
        <div className="button-row">
          <Button variant="quiet" onPress={() => onChange(generateBarcode())}>
            {t('orders.create.generateBarcode')}
          </Button>
        </div>
      )}
    </>
  );
}

/** The charges the business takes: NHS prescription and retail, each when switched on. */
function ChargeFields({ prescription, retail }: { prescription: boolean; retail: boolean }) {
  // Each charge's field is named for it and labelled by the string of the same name.
  const charge = (name: 'prescriptionCharge' | 'retailCharge') => (
    <TextField
      label={t(`orders.create.${name}`)}
      name={name}
      inputMode="decimal"
      description={t('orders.create.chargeHint')}
    />
  );
  return (
    <>
      {prescription && charge('prescriptionCharge')}
      {retail && charge('retailCharge')}
    </>
  );
}
