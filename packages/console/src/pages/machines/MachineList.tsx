import type { Machine } from '@medlocker/core';
import { useParams } from 'react-router';
import { machinePaths } from '../../paths.ts';
import { useMayCall } from '../../state/access.ts';
import { useLiveSubscription } from '../../state/live.ts';
import { machinesSearchAtom, machinesShowArchivedAtom, machinesShowTestAtom } from '../../state/machines.ts';
import { offByDefault, useUrlState } from '../../state/url-filter.ts';
import { Link } from '../../ui/Link.tsx';
import { type ListColumn, ListPage, type ListQuery, linkAction, nameColumn } from '../../ui/ListPage.tsx';
import { rpcListQuery } from '../../ui/rpc-list-query.ts';
import { Switch } from '../../ui/Switch.tsx';
import { t } from './i18n/index.ts';
import { ConnectionBadge } from './MachineStatusBadges.tsx';

type Row = Machine & { online?: boolean; lastSeen?: number | null };

/**
 * SPEC §2 `/businesses/{businessId}/machines`: search by name, show archived (`?archived=true`), Add
 * (support staff); live online state (the hub's pushes update the cached rows, state/machines.ts).
 * Support staff can list the business's QA test machines instead (`?test=true`), each with a link
 * to its events (docs/decisions/machines.md).
 */
export function MachineList() {
  const { businessId = '' } = useParams();
  const [showArchived, setShowArchived] = useUrlState('archived', machinesShowArchivedAtom, offByDefault);
  const mayListTest = useMayCall(['testMachines', 'list']);
  const [testWanted, setShowTest] = useUrlState('test', machinesShowTestAtom, offByDefault);
  const showTest = mayListTest && testWanted;
  useLiveSubscription(businessId ? { businessId } : null);

  const columns = machineColumns(businessId, showTest);

  return (
    <ListPage
      title={t('machines.list.title')}
      frame="section"
      actions={[linkAction(t('machines.list.add'), machinePaths.add(businessId), ['machines', 'createMachine'])]}
      search={{ atom: machinesSearchAtom, placeholder: t('machines.list.search') }}
      filters={
        <>
          <Switch isSelected={showArchived} onChange={setShowArchived}>
            {t('machines.list.showArchived')}
          </Switch>
          {mayListTest && (
            <Switch isSelected={showTest} onChange={setShowTest}>
              {t('machines.list.testMachines')}
            </Switch>
          )}
        </>
      }
      query={machinesQuery(businessId, showTest, showArchived)}
      label={showTest ? t('machines.list.testMachines') : t('machines.list.title')}
      columns={columns}
      emptyText={
        showTest
          ? showArchived
            ? t('machines.list.emptyTestArchived')
            : t('machines.list.emptyTest')
          : showArchived
            ? t('machines.list.emptyArchived')
            : t('machines.list.empty')
      }
    />
  );
}

/** The list's columns: name, slots, state, and for test machines a link to their events. */
function machineColumns(businessId: string, showTest: boolean): ListColumn<Row>[] {
  return [
    nameColumn(t('machines.list.column.name'), (m) => machinePaths.machine(businessId, m.id), 'minmax(10rem, 2fr)'),
    { key: 'slots', header: t('machines.list.column.slots'), width: '6rem', render: (m) => m.numberOfSlots },
    {
      key: 'state',
      header: t('machines.list.column.state'),
      width: 'minmax(10rem, 1fr)',
      render: (m) =>
        m.online === undefined ? (
          <span className="badges">
            <span className="badge badge--info">{t('machines.testMachine')}</span>
            {m.archived !== null && <span className="badge badge--off">{t('machines.archived')}</span>}
          </span>
        ) : (
          <ConnectionBadge online={m.online} archived={m.archived !== null} outOfOrder={m.outOfOrderStatus !== null} />
        ),
    },
    ...(showTest
      ? [
          {
            key: 'events',
            header: t('machines.list.column.events'),
            width: '7rem',
            render: (m: Row) => (
              <Link
                href={machinePaths.machine(businessId, m.id)}
                aria-label={t('machines.list.eventsOf', { name: m.name })}
              >
                {t('machines.list.events')}
              </Link>
            ),
          },
        ]
      : []),
  ];
}

/** The business's machines, or its test machines (support), active or archived, by name. */
function machinesQuery(businessId: string, showTest: boolean, showArchived: boolean): ListQuery<Row> {
  const input = (filter: string | undefined, nextToken: string | null) => ({
    businessId,
    archived: showArchived,
    filter,
    nextToken,
  });
  return showTest
    ? (rpcListQuery(['testMachines', 'list', businessId, showArchived], 'testMachines', input) as ListQuery<Row>)
    : rpcListQuery(['machines', 'listMachines', businessId, showArchived], 'machines', input);
}
