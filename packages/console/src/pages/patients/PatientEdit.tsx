import type { ImportedPatient, Patient } from '@medlocker/core';
import { useNavigate, useParams } from 'react-router';
import { messageOf, rpc } from '../../api/client.ts';
import { useRpcQuery } from '../../api/queries.ts';
import { patientPaths } from '../../paths.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { Form, FormActions } from '../../ui/Form.tsx';
import { Link } from '../../ui/Link.tsx';
import { Loading } from '../../ui/Page.tsx';
import { Section } from '../../ui/Section.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { useSubmit } from '../../ui/use-submit.ts';
import { t } from './i18n/index.ts';
import { basicPatientOf, DetailFields, detailFieldName, filledAddressOf } from './patient-fields.tsx';

/** The form as the patient's details: what an order needs, and the address when any line is filled. */
function patientOf(data: FormData): ImportedPatient {
  const address = filledAddressOf(data);
  return { ...basicPatientOf(data), ...(Object.keys(address).length > 0 ? { address } : {}) };
}

/** `/patients/{patientId}/edit`: a current patient's details, checked again by the server. */
export function PatientEdit() {
  const { businessId = '', patientId = '' } = useParams();
  const navigate = useNavigate();
  const query = useRpcQuery(['patients', 'get', patientId], { id: patientId });
  const { pending, formProps } = useSubmit(detailFieldName);

  if (!query.data) {
    return (
      <Section title={t('patients.edit.title')}>
        {query.error ? <Banner tone="error">{messageOf(query.error)}</Banner> : <Loading />}
      </Section>
    );
  }
  const patient: Patient = query.data.patient;

  return (
    <Section title={t('patients.edit.title')}>
      {patient.deleted && <Banner tone="warning">{t('patients.edit.deleted')}</Banner>}
      <Form
        className="form--page"
        {...formProps(async (data) => {
          await rpc('patients', 'update', { id: patient.id, patient: patientOf(data) });
          navigate(patientPaths.patient(businessId, patient.id), { state: { notice: t('patients.edit.saved') } });
        })}
      >
        <TextField label={t('patients.field.id')} name="displayId" isRequired defaultValue={patient.displayId} />
        <TextField label={t('patients.field.name')} name="name" isRequired defaultValue={patient.name} />
        <DetailFields value={patient} mobileRequired />
        <FormActions>
          <Button type="submit" variant="primary" isPending={pending} isDisabled={patient.deleted !== null}>
            {t('patients.edit.save')}
          </Button>
          <Link href={patientPaths.patient(businessId, patient.id)} variant="button">
            {t('patients.edit.cancel')}
          </Link>
        </FormActions>
      </Form>
    </Section>
  );
}
