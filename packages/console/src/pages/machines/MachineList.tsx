import type { Machine } from '@medlocker/core';
import { useAtom, useAtomValue } from 'jotai';
import { useParams } from 'react-router';
import { rpc } from '../../api/client.ts';
import { useDebounced, usePagedQuery } from '../../api/queries.ts';
import { useLiveSubscription } from '../../state/live.ts';
import { machineLiveAtom, machinesSearchAtom, machinesShowArchivedAtom } from '../../state/machines.ts';
import { useUrlSearch } from '../../state/url-filter.ts';
import { Button } from '../../ui/Button.tsx';
import { Link } from '../../ui/Link.tsx';
import { PagedList } from '../../ui/PagedList.tsx';
import { SearchField } from '../../ui/SearchField.tsx';
import { Section } from '../../ui/Section.tsx';
import { Switch } from '../../ui/Switch.tsx';
import type { VirtualColumn } from '../../ui/VirtualList.tsx';
import { machinePaths } from './MachineRoutes.tsx';
import { ConnectionBadge } from './MachineStatusBadges.tsx';

type Row = Machine & { online: boolean; lastSeen: number | null };

/** SPEC §2 `/businesses/{businessId}/machines`: search by name, show archived, Add; live online state. */
export function MachineList() {
  const { businessId = '' } = useParams();
  const [search, setSearch] = useUrlSearch(machinesSearchAtom);
  const [showArchived, setShowArchived] = useAtom(machinesShowArchivedAtom);
  const live = useAtomValue(machineLiveAtom);
  const filter = useDebounced(search.trim(), 500);
  useLiveSubscription(businessId ? { businessId } : null);
  const list = usePagedQuery(
    async (nextToken, signal) => {
      const page = await rpc(
        'machines',
        'listMachines',
        { businessId, archived: showArchived, filter: filter || undefined, nextToken },
        { signal },
      );
      return { items: page.machines as Row[], nextToken: page.nextToken };
    },
    ['machines', 'listMachines', businessId, filter, showArchived],
  );

  const columns: VirtualColumn<Row>[] = [
    {
      key: 'name',
      header: 'Name',
      width: 'minmax(10rem, 2fr)',
      render: (m) => <Link href={machinePaths.machine(businessId, m.id)}>{live[m.id]?.machine?.name ?? m.name}</Link>,
    },
    { key: 'slots', header: 'Slots', width: '6rem', render: (m) => m.numberOfSlots },
    {
      key: 'state',
      header: 'State',
      width: 'minmax(10rem, 1fr)',
      render: (m) => {
        const l = live[m.id];
        const machine = l?.machine ?? m;
        return (
          <ConnectionBadge
            online={l?.online ?? m.online}
            archived={machine.archived !== null}
            outOfOrder={machine.outOfOrderStatus !== null}
          />
        );
      },
    },
  ];

  return (
    <Section
      title="Machines"
      actions={
        <>
          <Button onPress={list.reload}>Reload</Button>
          <Link href={machinePaths.add(businessId)} variant="primary-button">
            Add
          </Link>
        </>
      }
    >
      <div className="toolbar">
        <SearchField
          label="Search"
          placeholder="Machine name"
          value={search}
          onChange={setSearch}
          className="toolbar__search"
        />
        <Switch isSelected={showArchived} onChange={setShowArchived}>
          Show archived
        </Switch>
      </div>
      <PagedList
        query={list}
        label="Machines"
        columns={columns}
        emptyText={showArchived ? 'No archived machines found.' : 'No machines found.'}
      />
    </Section>
  );
}
