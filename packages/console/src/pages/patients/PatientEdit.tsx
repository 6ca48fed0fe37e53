import type { ImportedPatient, Patient } from '@medlocker/core';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { ApiError, messageOf, rpc } from '../../api/client.ts';
import { useQuery } from '../../api/queries.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { Form, FormActions } from '../../ui/Form.tsx';
import { Link } from '../../ui/Link.tsx';
import { Loading } from '../../ui/Page.tsx';
import { Section } from '../../ui/Section.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { patientPaths } from './PatientRoutes.tsx';
import { DetailFields, fieldErrorsOf, filledAddressOf, isoDateOf, textOf } from './patient-fields.tsx';

function patientOf(data: FormData): ImportedPatient {
  const text = (name: string) => textOf(data, name);
  const address = filledAddressOf(data);
  return {
    displayId: text('displayId'),
    name: { full: text('name') },
    mobileNumber: text('mobileNumber'),
    ...(text('dateOfBirth') ? { dateOfBirth: isoDateOf(text('dateOfBirth')) } : {}),
    ...(text('email') ? { email: text('email') } : {}),
    ...(Object.keys(address).length > 0 ? { address } : {}),
  };
}

/** `/patients/{patientId}/edit`: a current patient's details, checked again by the server. */
export function PatientEdit() {
  const { businessId = '', patientId = '' } = useParams();
  const navigate = useNavigate();
  const query = useQuery((signal) => rpc('patients', 'get', { id: patientId }, { signal }), [patientId]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string>();
  const [pending, setPending] = useState(false);

  if (!query.data) {
    return (
      <Section title="Edit patient">
        {query.error ? <Banner tone="error">{messageOf(query.error)}</Banner> : <Loading />}
      </Section>
    );
  }
  const patient: Patient = query.data.patient;

  const save = async (data: FormData) => {
    setPending(true);
    setFormError(undefined);
    setErrors({});
    try {
      await rpc('patients', 'update', { id: patient.id, patient: patientOf(data) });
      navigate(patientPaths.patient(businessId, patient.id), { state: { notice: 'Patient saved.' } });
    } catch (e) {
      const fields = e instanceof ApiError ? fieldErrorsOf(e) : {};
      if (Object.keys(fields).length > 0) setErrors(fields);
      else setFormError(messageOf(e));
      setPending(false);
    }
  };

  return (
    <Section title="Edit patient">
      {patient.deleted && <Banner tone="warning">This patient is deleted and cannot be edited.</Banner>}
      <Form
        className="form--page"
        error={formError}
        validationErrors={errors}
        onSubmit={(event) => {
          event.preventDefault();
          void save(new FormData(event.currentTarget));
        }}
      >
        <TextField label="ID" name="displayId" isRequired defaultValue={patient.displayId} />
        <TextField label="Name" name="name" isRequired defaultValue={patient.name} />
        <DetailFields value={patient} mobileRequired />
        <FormActions>
          <Button type="submit" variant="primary" isPending={pending} isDisabled={patient.deleted !== null}>
            Save
          </Button>
          <Link href={patientPaths.patient(businessId, patient.id)} variant="button">
            Cancel
          </Link>
        </FormActions>
      </Form>
    </Section>
  );
}
