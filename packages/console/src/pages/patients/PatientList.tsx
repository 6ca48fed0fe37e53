import type { Patient } from '@medlocker/core';
import { useAtom } from 'jotai';
import { useParams } from 'react-router';
import { rpc } from '../../api/client.ts';
import { useDebounced, usePagedQuery } from '../../api/queries.ts';
import { useFlashNotice } from '../../shell/flash.ts';
import { patientsOnlyCurrentAtom, patientsOnlyWithIssuesAtom, patientsSearchAtom } from '../../state/patients.ts';
import { useUrlSearch } from '../../state/url-filter.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { Link } from '../../ui/Link.tsx';
import { PagedList } from '../../ui/PagedList.tsx';
import { SearchField } from '../../ui/SearchField.tsx';
import { Section } from '../../ui/Section.tsx';
import { Switch } from '../../ui/Switch.tsx';
import type { VirtualColumn } from '../../ui/VirtualList.tsx';
import { patientPaths } from './PatientRoutes.tsx';
import { dateOfBirthOf, displayIdOf } from './patient-format.ts';

const issuesOf = (p: Patient) =>
  [p.lastSmsFailure && 'SMS failed', p.lastEmailFailure && 'Email failed'].filter(Boolean).join(', ');

/** SPEC §2 `/businesses/{businessId}/patients`: search (prefix), only current, only with issues, paged as it scrolls. */
export function PatientList() {
  const { businessId = '' } = useParams();
  const notice = useFlashNotice();
  const [search, setSearch] = useUrlSearch(patientsSearchAtom);
  const [onlyCurrent, setOnlyCurrent] = useAtom(patientsOnlyCurrentAtom);
  const [onlyWithIssues, setOnlyWithIssues] = useAtom(patientsOnlyWithIssuesAtom);
  const filter = useDebounced(search.trim(), 500);
  const list = usePagedQuery(
    async (nextToken, signal) => {
      const page = await rpc(
        'patients',
        'list',
        { businessId, filter: filter || undefined, onlyCurrent, onlyWithIssues, nextToken },
        { signal },
      );
      return { items: page.patients, nextToken: page.nextToken };
    },
    ['patients', 'list', businessId, filter, onlyCurrent, onlyWithIssues],
  );

  const columns: VirtualColumn<Patient>[] = [
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
    <Section
      title="Patients"
      actions={
        <>
          <Button onPress={list.reload}>Reload</Button>
          <Link href={patientPaths.signUps(businessId)} variant="button">
            Sign-ups
          </Link>
          <Link href={patientPaths.import(businessId)} variant="primary-button">
            Import
          </Link>
        </>
      }
    >
      {notice && <Banner tone="success">{notice}</Banner>}
      <div className="toolbar">
        <SearchField
          label="Search"
          placeholder="Name, ID, mobile or email"
          value={search}
          onChange={setSearch}
          className="toolbar__search"
        />
        <Switch isSelected={onlyCurrent} onChange={setOnlyCurrent}>
          Only current
        </Switch>
        <Switch isSelected={onlyWithIssues} onChange={setOnlyWithIssues}>
          Only with issues
        </Switch>
      </div>
      <PagedList query={list} label="Patients" columns={columns} emptyText="No patients found." />
    </Section>
  );
}
