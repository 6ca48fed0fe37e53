import { formatDate, formatDateTime } from '@medlocker/core';
import { useState } from 'react';
import { useParams } from 'react-router';
import { messageOf, rpc } from '../../api/client.ts';
import { useQuery } from '../../api/queries.ts';
import { machinePaths } from '../../paths.ts';
import { useFlashNotice } from '../../shell/flash.ts';
import { useLiveSubscription } from '../../state/live.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { Link } from '../../ui/Link.tsx';
import { LoadError } from '../../ui/LoadError.tsx';
import { Loading } from '../../ui/Page.tsx';
import { Section } from '../../ui/Section.tsx';
import { Switch } from '../../ui/Switch.tsx';
import { Tabs } from '../../ui/Tabs.tsx';
import { type Confirm, MachineConfirmDialogs } from './MachineConfirmDialogs.tsx';
import { ConnectionBadge } from './MachineStatusBadges.tsx';
import { MachineContents, MachineEvents, MachineStatusReports } from './MachineTabs.tsx';
import { PairDialog } from './PairDialog.tsx';
import { TemperatureTab } from './TemperatureTab.tsx';

/** SPEC §2 `/machines/{machineId}`: details, Pair, Edit, Archive, out of order, payments, and the tabs. */
export function MachineDetails() {
  const { businessId = '', machineId = '' } = useParams();
  const notice = useFlashNotice();
  const query = useQuery(
    (signal) => rpc('machines', 'getMachine', { id: machineId }, { signal }),
    ['machines', 'getMachine', machineId],
  );
  const [pairing, setPairing] = useState(false);
  const [confirm, setConfirm] = useState<Confirm>(null);
  const [pending, setPending] = useState(false);
  const [actionError, setActionError] = useState<string>();
  const [message, setMessage] = useState<string>();
  useLiveSubscription(machineId ? { machineId } : null);

  if (!query.data) {
    return (
      <Section title="Machine">
        {query.error ? <LoadError error={query.error} onRetry={query.reload} /> : <Loading />}
      </Section>
    );
  }

  // Kept current by the hub's pushes (state/machines.ts writes them into this cached answer).
  const { machine, online, lastSeen } = query.data;
  const archived = machine.archived;
  const outOfOrder = machine.outOfOrderStatus;

  const run = async (action: () => Promise<unknown>, done: string) => {
    setPending(true);
    setActionError(undefined);
    try {
      await action();
      setMessage(done);
      setConfirm(null);
      query.reload();
    } catch (e) {
      setActionError(messageOf(e));
    } finally {
      setPending(false);
    }
  };

  return (
    <Section
      title={machine.name}
      lead={<ConnectionBadge online={online} outOfOrder={outOfOrder !== null} archived={archived !== null} />}
      actions={
        <>
          {!archived && <Button onPress={() => setPairing(true)}>Pair</Button>}
          {!archived && (
            <Link href={machinePaths.edit(businessId, machine.id)} variant="button">
              Edit
            </Link>
          )}
          <Link href={machinePaths.evidence(businessId, machine.id)} variant="button">
            Evidence pack
          </Link>
          <Button variant={archived ? 'secondary' : 'danger'} onPress={() => setConfirm('archive')}>
            {archived ? 'Unarchive' : 'Archive'}
          </Button>
        </>
      }
    >
      {archived && (
        <Banner tone="warning" title="This machine is archived">
          Archived on {formatDate(archived.at)}
          {archived.userDisplayName ? ` by ${archived.userDisplayName}` : ''}. It cannot be edited or paired.
        </Banner>
      )}
      {(message ?? notice) && <Banner tone="success">{message ?? notice}</Banner>}
      {actionError && !confirm && <Banner tone="error">{actionError}</Banner>}

      <dl className="details">
        <div className="details__item">
          <dt>Connection</dt>
          <dd>
            {online ? 'Online' : 'Offline'}
            {lastSeen ? ` · last seen ${formatDateTime(lastSeen)}` : query.data.paired ? '' : ' · not paired yet'}
          </dd>
        </div>
        <div className="details__item">
          <dt>Number of slots</dt>
          <dd>{machine.numberOfSlots}</dd>
        </div>
        <div className="details__item">
          <dt>Out of order</dt>
          <dd>
            {outOfOrder ? `Since ${formatDateTime(outOfOrder.at)}, by ${outOfOrder.userDisplayName}` : 'No, in order'}
          </dd>
        </div>
        <div className="details__item">
          <dt>Payments</dt>
          <dd>{machine.paymentsEnabled ? 'Enabled' : 'Disabled'}</dd>
        </div>
      </dl>

      <div className="toolbar machine-switches">
        <Switch
          isSelected={outOfOrder !== null}
          isDisabled={archived !== null || pending}
          onChange={() => {
            setActionError(undefined);
            setConfirm('outOfOrder');
          }}
        >
          Out of order
        </Switch>
        <Switch
          isSelected={machine.paymentsEnabled}
          isDisabled={archived !== null || pending}
          onChange={() => {
            setActionError(undefined);
            setConfirm('payments');
          }}
        >
          Payments enabled
        </Switch>
      </div>

      <Tabs
        label="Machine"
        tabs={[
          {
            id: 'events',
            label: 'Events',
            content: <MachineEvents machineId={machine.id} />,
          },
          {
            id: 'contents',
            label: 'Contents',
            content: <MachineContents businessId={businessId} machineId={machine.id} />,
          },
          {
            id: 'status',
            label: 'Status',
            content: <MachineStatusReports machineId={machine.id} />,
          },
          {
            id: 'temperature',
            label: 'Temperature',
            content: <TemperatureTab machineId={machine.id} updated={machine.temperatureStatus?.updated ?? null} />,
          },
        ]}
      />

      {pairing && (
        <PairDialog
          machineId={machine.id}
          onClose={(paired) => {
            setPairing(false);
            if (paired) {
              setMessage('Machine paired.');
              query.reload();
            }
          }}
        />
      )}

      <MachineConfirmDialogs
        machine={machine}
        confirm={confirm}
        pending={pending}
        error={actionError}
        onClose={() => !pending && setConfirm(null)}
        run={run}
      />
    </Section>
  );
}
