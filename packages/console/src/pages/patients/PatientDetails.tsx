import { formatDate } from '@medlocker/core';
import { useNavigate, useParams } from 'react-router';
import { messageOf, type RpcOutput, rpc } from '../../api/client.ts';
import { useRpcQuery } from '../../api/queries.ts';
import { consolePaths, patientPaths } from '../../paths.ts';
import { useFlashNotice } from '../../shell/flash.ts';
import { useBusinessGroupId } from '../../state/current-business.ts';
import { useAdministers } from '../../state/reach.ts';
import { Banner } from '../../ui/Banner.tsx';
import { DetailsItem } from '../../ui/Details.tsx';
import { ConfirmButton } from '../../ui/Dialog.tsx';
import { Link } from '../../ui/Link.tsx';
import { Loading } from '../../ui/Page.tsx';
import { Section } from '../../ui/Section.tsx';
import { t } from './i18n/index.ts';
import { PatientDataActions } from './PatientDataActions.tsx';
import { PatientOrders } from './PatientOrders.tsx';
import { addressOf, dateOfBirthOf, displayIdOf } from './patient-format.ts';
import { WhatsAppOptIn } from './WhatsAppOptIn.tsx';

/** A patient: details, Edit, and Delete with a confirmation. */
export function PatientDetails() {
  const { businessId = '', patientId = '' } = useParams();
  const query = useRpcQuery(['patients', 'get', patientId], { id: patientId });
  if (!query.data) {
    return (
      <Section title={t('patients.details.title')}>
        {query.error ? <Banner tone="error">{messageOf(query.error)}</Banner> : <Loading />}
      </Section>
    );
  }
  return <PatientPage businessId={businessId} patient={query.data.patient} />;
}

type Patient = RpcOutput<'patients', 'get'>['patient'];

function PatientPage({ businessId, patient }: { businessId: string; patient: Patient }) {
  const navigate = useNavigate();
  const notice = useFlashNotice();

  return (
    <Section
      title={patient.name}
      actions={
        <>
          <WhoLooked businessId={businessId} patientId={patient.id} />
          {!patient.deleted && (
            <>
              <Link href={patientPaths.edit(businessId, patient.id)} variant="button">
                {t('patients.details.edit')}
              </Link>
              <ConfirmButton
                variant="danger"
                label={t('patients.details.delete')}
                title={t('patients.details.deleteTitle')}
                cancelLabel={t('patients.details.deleteKeep')}
                confirmLabel={t('patients.details.deleteConfirm')}
                action={() => rpc('patients', 'delete', { id: patient.id })}
                onDone={() =>
                  navigate(patientPaths.list(businessId), {
                    state: { notice: t('patients.details.deletedNotice', { name: patient.name }) },
                  })
                }
              >
                <p>
                  {t('patients.details.deleteBody', { name: patient.name, displayId: displayIdOf(patient.displayId) })}
                </p>
              </ConfirmButton>
            </>
          )}
        </>
      }
    >
      {notice && <Banner tone="success">{notice}</Banner>}
      {patient.deleted && (
        <Banner tone="warning">
          {t('patients.details.deletedOn', {
            date: formatDate(patient.deleted.deletedAt),
            by: patient.deleted.deletedByDisplayName,
          })}
        </Banner>
      )}
      <PatientFacts businessId={businessId} patient={patient} />
      <PatientOrders businessId={businessId} patientId={patient.id} />
      <PatientDataActions
        patient={patient}
        onErased={() =>
          navigate(patientPaths.list(businessId), {
            state: { notice: t('patients.details.erased', { name: patient.name }) },
          })
        }
      />
      <p>
        <Link href={patientPaths.list(businessId)}>{t('patients.details.back')}</Link>
      </p>
    </Section>
  );
}

/** "Who looked at this patient": the audit trail filtered to them, for support and the business's Admins. */
function WhoLooked({ businessId, patientId }: { businessId: string; patientId: string }) {
  const groupId = useBusinessGroupId(businessId);
  const manages = useAdministers({ kind: 'business', id: businessId, groupId: groupId ?? null });
  if (!manages || groupId === undefined) return null;
  return (
    <Link href={consolePaths.patientAudit(patientId)} variant="button">
      {t('patients.details.whoLooked')}
    </Link>
  );
}

/** The last failure of a channel, or None. */
const failureText = (failure: { error: string; timestamp: number } | null | undefined) =>
  failure
    ? t('patients.details.failure', { error: failure.error, date: formatDate(failure.timestamp) })
    : t('patients.details.noFailure');

/** Who the patient is, how to reach them (WhatsApp too), and the last message that failed. */
function PatientFacts({ businessId, patient }: { businessId: string; patient: Patient }) {
  const item = (label: string, value: string) => (
    <DetailsItem term={label}>{value || t('patients.noValue')}</DetailsItem>
  );
  return (
    <dl className="details">
      {item(t('patients.field.id'), displayIdOf(patient.displayId))}
      {item(t('patients.field.name'), patient.name)}
      {item(t('patients.field.dateOfBirth'), dateOfBirthOf(patient.dateOfBirth))}
      {item(t('patients.field.email'), patient.email ?? '')}
      {item(t('patients.field.mobile'), patient.mobileNumber ?? '')}
      <WhatsAppOptIn businessId={businessId} patient={patient} />
      {item(t('patients.details.address'), addressOf(patient.address))}
      {item(t('patients.details.lastSmsFailure'), failureText(patient.lastSmsFailure))}
      {item(t('patients.details.lastEmailFailure'), failureText(patient.lastEmailFailure))}
    </dl>
  );
}
