import { formatDate } from '@medlocker/core';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { messageOf, type RpcOutput, rpc } from '../../api/client.ts';
import { useQuery } from '../../api/queries.ts';
import { consolePaths, patientPaths } from '../../paths.ts';
import { useFlashNotice } from '../../shell/flash.ts';
import { useBusinessGroupId } from '../../state/current-business.ts';
import { useAdministers } from '../../state/reach.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { ConfirmAction, confirmWords } from '../../ui/Dialog.tsx';
import { Link } from '../../ui/Link.tsx';
import { Loading } from '../../ui/Page.tsx';
import { Section } from '../../ui/Section.tsx';
import { PatientDataActions } from './PatientDataActions.tsx';
import { PatientOrders } from './PatientOrders.tsx';
import { addressOf, dateOfBirthOf, displayIdOf } from './patient-format.ts';
import { WhatsAppOptIn } from './WhatsAppOptIn.tsx';

/** A patient: details, Edit, and Delete with a confirmation. */
export function PatientDetails() {
  const { businessId = '', patientId = '' } = useParams();
  const query = useQuery(
    (signal) => rpc('patients', 'get', { id: patientId }, { signal }),
    ['patients', 'get', patientId],
  );
  if (!query.data) {
    return (
      <Section title="Patient">
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
  const [deleting, setDeleting] = useState(false);

  return (
    <Section
      title={patient.name}
      actions={
        <>
          <WhoLooked businessId={businessId} patientId={patient.id} />
          {!patient.deleted && (
            <>
              <Link href={patientPaths.edit(businessId, patient.id)} variant="button">
                Edit
              </Link>
              <Button variant="danger" onPress={() => setDeleting(true)}>
                Delete
              </Button>
            </>
          )}
        </>
      }
    >
      {notice && <Banner tone="success">{notice}</Banner>}
      {patient.deleted && (
        <Banner tone="warning">
          Deleted on {formatDate(patient.deleted.deletedAt)} by {patient.deleted.deletedByDisplayName}.
        </Banner>
      )}
      <PatientFacts businessId={businessId} patient={patient} />
      <PatientOrders businessId={businessId} patientId={patient.id} />
      <PatientDataActions
        patient={patient}
        onErased={() => navigate(patientPaths.list(businessId), { state: { notice: `${patient.name} was erased.` } })}
      />
      <p>
        <Link href={patientPaths.list(businessId)}>Back to patients</Link>
      </p>
      {deleting && (
        <ConfirmAction
          {...confirmWords('Delete', 'patient')}
          isOpen
          action={() => rpc('patients', 'delete', { id: patient.id })}
          onDone={() => navigate(patientPaths.list(businessId), { state: { notice: `${patient.name} was deleted.` } })}
          onCancel={() => setDeleting(false)}
        >
          <p>
            {patient.name} ({displayIdOf(patient.displayId)}) will be removed from the patient list. Their orders are
            kept.
          </p>
        </ConfirmAction>
      )}
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
      Who looked at this patient
    </Link>
  );
}

/** The last failure of a channel, or None. */
const failureText = (failure: { error: string; timestamp: number } | null | undefined) =>
  failure ? `${failure.error} (${formatDate(failure.timestamp)})` : 'None';

/** Who the patient is, how to reach them (WhatsApp too), and the last message that failed. */
function PatientFacts({ businessId, patient }: { businessId: string; patient: Patient }) {
  const item = (label: string, value: string) => (
    <div className="details__item">
      <dt>{label}</dt>
      <dd>{value || '—'}</dd>
    </div>
  );
  return (
    <dl className="details">
      {item('ID', displayIdOf(patient.displayId))}
      {item('Name', patient.name)}
      {item('Date of birth', dateOfBirthOf(patient.dateOfBirth))}
      {item('Email', patient.email ?? '')}
      {item('Mobile', patient.mobileNumber ?? '')}
      <WhatsAppOptIn businessId={businessId} patient={patient} />
      {item('Address', addressOf(patient.address))}
      {item('Last SMS failure', failureText(patient.lastSmsFailure))}
      {item('Last email failure', failureText(patient.lastEmailFailure))}
    </dl>
  );
}
