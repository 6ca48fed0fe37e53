import type { Patient } from '@medlocker/core';
import { useParams } from 'react-router';
import { rpc } from '../../api/client.ts';
import { patientPaths } from '../../paths.ts';
import { useFlashNotice } from '../../shell/flash.ts';
import { patientsOnlyCurrentAtom, patientsOnlyWithIssuesAtom, patientsSearchAtom } from '../../state/patients.ts';
import { offByDefault, onByDefault, useUrlState } from '../../state/url-filter.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Link } from '../../ui/Link.tsx';
import { type ListColumn, ListPage, linkAction } from '../../ui/ListPage.tsx';
import { Switch } from '../../ui/Switch.tsx';
import { dateOfBirthOf, displayIdOf } from './patient-format.ts';

const issuesOf = (p: Patient) =>
  [p.lastSmsFailure && 'SMS failed', p.lastEmailFailure && 'Email failed'].filter(Boolean).join(', ');

/**
 * SPEC §2 `/businesses/{businessId}/patients`: search (contains), only current (`?current=false` to
 * see deleted ones too), only with issues (`?issues=true`), paged as it scrolls.
 */
export function PatientList() {
  const { businessId = '' } = useParams();
  const notice = useFlashNotice();
  const [onlyCurrent, setOnlyCurrent] = useUrlState('current', patientsOnlyCurrentAtom, onByDefault);
  const [onlyWithIssues, setOnlyWithIssues] = useUrlState('issues', patientsOnlyWithIssuesAtom, offByDefault);

  const columns: ListColumn<Patient>[] = [
    {
      key: 'name',
      header: 'Name',
      width: 'minmax(10rem, 1.5fr)',
      render: (p) => (
        <Link href={patientPaths.patient(businessId, p.id)}>
          {p.name}
          {p.deleted ? ' (deleted)' : ''}
        </Link>
      ),
    },
    { key: 'id', header: 'ID', width: 'minmax(8rem, 1fr)', render: (p) => displayIdOf(p.displayId) },
    { key: 'dob', header: 'Date of birth', width: '8rem', render: (p) => dateOfBirthOf(p.dateOfBirth) },
    { key: 'mobile', header: 'Mobile', width: '9rem', render: (p) => p.mobileNumber ?? '—' },
    { key: 'issues', header: 'Issues', width: 'minmax(6rem, 1fr)', render: (p) => issuesOf(p) || '—' },
  ];

  return (
    <ListPage
      title="Patients"
      frame="section"
      actions={[
        linkAction('Sign-ups', patientPaths.signUps(businessId), ['signUps', 'list'], 'button'),
        linkAction('Import', patientPaths.import(businessId), ['patients', 'batchUpsertPatients']),
      ]}
      banner={notice && <Banner tone="success">{notice}</Banner>}
      search={{ atom: patientsSearchAtom, placeholder: 'Name, ID, mobile or email' }}
      filters={
        <>
          <Switch isSelected={onlyCurrent} onChange={setOnlyCurrent}>
            Only current
          </Switch>
          <Switch isSelected={onlyWithIssues} onChange={setOnlyWithIssues}>
            Only with issues
          </Switch>
        </>
      }
      query={{
        key: ['patients', 'list', businessId, onlyCurrent, onlyWithIssues],
        load: async (filter, nextToken) => {
          const page = await rpc('patients', 'list', { businessId, filter, onlyCurrent, onlyWithIssues, nextToken });
          return { items: page.patients, nextToken: page.nextToken };
        },
      }}
      label="Patients"
      columns={columns}
      emptyText="No patients found."
    />
  );
}
