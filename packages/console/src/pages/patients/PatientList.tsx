import type { Patient } from '@medlocker/core';
import { useParams } from 'react-router';
import { patientPaths } from '../../paths.ts';
import { useFlashNotice } from '../../shell/flash.ts';
import { patientsOnlyCurrentAtom, patientsOnlyWithIssuesAtom, patientsSearchAtom } from '../../state/patients.ts';
import { offByDefault, onByDefault, useUrlState } from '../../state/url-filter.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Link } from '../../ui/Link.tsx';
import { type ListColumn, ListPage, linkAction } from '../../ui/ListPage.tsx';
import { rpcListQuery } from '../../ui/rpc-list-query.ts';
import { Switch } from '../../ui/Switch.tsx';
import { t } from './i18n/index.ts';
import { dateOfBirthOf, displayIdOf } from './patient-format.ts';

const issuesOf = (p: Patient) =>
  [p.lastSmsFailure && t('patients.issue.sms'), p.lastEmailFailure && t('patients.issue.email')]
    .filter(Boolean)
    .join(', ');

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
      header: t('patients.column.name'),
      width: 'minmax(10rem, 1.5fr)',
      render: (p) => (
        <Link href={patientPaths.patient(businessId, p.id)}>
          {p.name}
          {p.deleted ? t('patients.list.deleted') : ''}
        </Link>
      ),
    },
    { key: 'id', header: t('patients.column.id'), width: 'minmax(8rem, 1fr)', render: (p) => displayIdOf(p.displayId) },
    {
      key: 'dob',
      header: t('patients.column.dateOfBirth'),
      width: '8rem',
      render: (p) => dateOfBirthOf(p.dateOfBirth),
    },
    {
      key: 'mobile',
      header: t('patients.column.mobile'),
      width: '9rem',
      render: (p) => p.mobileNumber ?? t('patients.noValue'),
    },
    {
      key: 'issues',
      header: t('patients.column.issues'),
      width: 'minmax(6rem, 1fr)',
      render: (p) => issuesOf(p) || t('patients.noValue'),
    },
  ];

  return (
    <ListPage
      title={t('patients.list.title')}
      frame="section"
      actions={[
        linkAction(t('patients.list.signUps'), patientPaths.signUps(businessId), ['signUps', 'list'], 'button'),
        linkAction(t('patients.list.import'), patientPaths.import(businessId), ['patients', 'batchUpsertPatients']),
      ]}
      banner={notice && <Banner tone="success">{notice}</Banner>}
      search={{ atom: patientsSearchAtom, placeholder: t('patients.list.search') }}
      filters={
        <>
          <Switch isSelected={onlyCurrent} onChange={setOnlyCurrent}>
            {t('patients.list.onlyCurrent')}
          </Switch>
          <Switch isSelected={onlyWithIssues} onChange={setOnlyWithIssues}>
            {t('patients.list.onlyWithIssues')}
          </Switch>
        </>
      }
      query={rpcListQuery(
        ['patients', 'list', businessId, onlyCurrent, onlyWithIssues],
        'patients',
        (filter, nextToken) => ({ businessId, filter, onlyCurrent, onlyWithIssues, nextToken }),
      )}
      label={t('patients.list.title')}
      columns={columns}
      emptyText={t('patients.list.empty')}
    />
  );
}
