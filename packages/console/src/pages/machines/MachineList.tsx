import type { Machine } from '@medlocker/core';
import { useParams } from 'react-router';
import { rpc } from '../../api/client.ts';
import { machinePaths } from '../../paths.ts';
import { useLiveSubscription } from '../../state/live.ts';
import { machinesSearchAtom, machinesShowArchivedAtom } from '../../state/machines.ts';
import { offByDefault, useUrlState } from '../../state/url-filter.ts';
import { Link } from '../../ui/Link.tsx';
import { type ListColumn, ListPage, linkAction } from '../../ui/ListPage.tsx';
import { Switch } from '../../ui/Switch.tsx';
import { ConnectionBadge } from './MachineStatusBadges.tsx';

type Row = Machine & { online: boolean; lastSeen: number | null };

/**
 * SPEC §2 `/businesses/{businessId}/machines`: search by name, show archived (`?archived=true`), Add
 * (support staff); live online state (the hub's pushes update the cached rows, state/machines.ts).
 */
export function MachineList() {
  const { businessId = '' } = useParams();
  const [showArchived, setShowArchived] = useUrlState('archived', machinesShowArchivedAtom, offByDefault);
  useLiveSubscription(businessId ? { businessId } : null);

  const columns: ListColumn<Row>[] = [
    {
      key: 'name',
      header: 'Name',
      width: 'minmax(10rem, 2fr)',
      render: (m) => <Link href={machinePaths.machine(businessId, m.id)}>{m.name}</Link>,
    },
    { key: 'slots', header: 'Slots', width: '6rem', render: (m) => m.numberOfSlots },
    {
      key: 'state',
      header: 'State',
      width: 'minmax(10rem, 1fr)',
      render: (m) => (
        <ConnectionBadge online={m.online} archived={m.archived !== null} outOfOrder={m.outOfOrderStatus !== null} />
      ),
    },
  ];

  return (
    <ListPage
      title="Machines"
      frame="section"
      actions={[linkAction('Add', machinePaths.add(businessId), ['machines', 'createMachine'])]}
      search={{ atom: machinesSearchAtom, placeholder: 'Machine name' }}
      filters={
        <Switch isSelected={showArchived} onChange={setShowArchived}>
          Show archived
        </Switch>
      }
      query={{
        key: ['machines', 'listMachines', businessId, showArchived],
        load: async (filter, nextToken) => {
          const page = await rpc('machines', 'listMachines', { businessId, archived: showArchived, filter, nextToken });
          return { items: page.machines as Row[], nextToken: page.nextToken };
        },
      }}
      label="Machines"
      columns={columns}
      emptyText={showArchived ? 'No archived machines found.' : 'No machines found.'}
    />
  );
}
