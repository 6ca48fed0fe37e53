import { useState } from 'react';
import { useParams } from 'react-router';
import type { RpcOutput } from '../../api/client.ts';
import { useRpcQuery } from '../../api/queries.ts';
import { machinePaths } from '../../paths.ts';
import { useFlashNotice } from '../../shell/flash.ts';
import { useMayCall } from '../../state/access.ts';
import { useLiveSubscription } from '../../state/live.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { Link } from '../../ui/Link.tsx';
import { LoadError } from '../../ui/LoadError.tsx';
import { Loading } from '../../ui/Page.tsx';
import { Section } from '../../ui/Section.tsx';
import { Switch } from '../../ui/Switch.tsx';
import { Tabs } from '../../ui/Tabs.tsx';
import { useAction } from '../../ui/use-action.ts';
import { t } from './i18n/index.ts';
import { LockerCommands } from './LockerCommands.tsx';
import { type Confirm, MachineConfirmDialogs } from './MachineConfirmDialogs.tsx';
import { ArchivedBanner, MachineFacts } from './MachineFacts.tsx';
import { MachineNotices } from './MachineNotices.tsx';
import { ConnectionBadge } from './MachineStatusBadges.tsx';
import { MachineContents, MachineEvents, MachineStatusReports } from './MachineTabs.tsx';
import { OpenAlarms } from './OpenAlarms.tsx';
import { PairDialog } from './PairDialog.tsx';
import { TemperatureTab } from './TemperatureTab.tsx';

/** SPEC §2 `/machines/{machineId}`: details, Pair, Edit, Archive, out of order, payments, and the tabs. */
export function MachineDetails() {
  const { businessId = '', machineId = '' } = useParams();
  const query = useRpcQuery(['machines', 'getMachine', machineId], { id: machineId });
  useLiveSubscription(machineId ? { machineId } : null);

  if (!query.data) {
    return (
      <Section title={t('machines.page.title')}>
        {query.error ? <LoadError error={query.error} onRetry={query.reload} /> : <Loading />}
      </Section>
    );
  }
  // Kept current by the hub's pushes (state/machines.ts writes them into this cached answer).
  return <MachinePage businessId={businessId} data={query.data} reload={query.reload} />;
}

type MachineAnswer = RpcOutput<'machines', 'getMachine'>;

function MachinePage({ businessId, data, reload }: { businessId: string; data: MachineAnswer; reload: () => void }) {
  const notice = useFlashNotice();
  const [pairing, setPairing] = useState(false);
  const [confirm, setConfirm] = useState<Confirm>(null);
  const { pending, error: actionError, setError: setActionError, run: call } = useAction();
  const [message, setMessage] = useState<string>();
  const { machine } = data;
  const archived = machine.archived;

  const run = async (action: () => Promise<unknown>, done: string) => {
    if (!(await call(action))) return;
    setMessage(done);
    setConfirm(null);
    reload();
  };
  const ask = (what: Confirm) => {
    setActionError(undefined);
    setConfirm(what);
  };

  return (
    <Section
      title={machine.name}
      lead={
        <>
          <ConnectionBadge
            online={data.online}
            outOfOrder={machine.outOfOrderStatus !== null}
            archived={archived !== null}
          />
          {data.test && <span className="badge badge--info">{t('machines.testMachine')}</span>}
        </>
      }
      actions={
        <MachineActions
          businessId={businessId}
          machine={machine}
          onPair={() => setPairing(true)}
          onArchive={() => setConfirm('archive')}
        />
      }
    >
      {archived && <ArchivedBanner archived={archived} />}
      {(message ?? notice) && <Banner tone="success">{message ?? notice}</Banner>}
      {actionError && !confirm && <Banner tone="error">{actionError}</Banner>}
      <MachineNotices businessId={businessId} data={data} />
      <OpenAlarms machineId={machine.id} />
      <MachineFacts data={data} />
      <MachineSwitches machine={machine} isDisabled={archived !== null || pending} onAsk={ask} />
      {!archived && <LockerCommands machineId={machine.id} businessId={businessId} online={data.online} />}
      <MachineTabsOf businessId={businessId} machine={machine} />
      {pairing && (
        <PairDialog
          machineId={machine.id}
          onClose={(paired) => {
            setPairing(false);
            if (paired) {
              setMessage(t('machines.page.paired'));
              reload();
            }
          }}
        />
      )}
      <MachineConfirmDialogs
        machine={machine}
        test={data.test}
        confirm={confirm}
        pending={pending}
        error={actionError}
        onClose={() => !pending && setConfirm(null)}
        run={run}
      />
    </Section>
  );
}

type Machine = MachineAnswer['machine'];

/** Pair and Edit (not for an archived machine), the evidence pack, Archive or Unarchive. */
function MachineActions({
  businessId,
  machine,
  onPair,
  onArchive,
}: {
  businessId: string;
  machine: Machine;
  onPair: () => void;
  onArchive: () => void;
}) {
  const archived = machine.archived;
  // Each only to who may call its method (core's contract): support staff today.
  const mayPair = useMayCall(['auth', 'activateDeviceAuth']);
  const mayEdit = useMayCall(['machines', 'updateMachine']);
  const mayArchive = useMayCall(['machines', 'toggleArchive']);
  return (
    <>
      {!archived && mayPair && <Button onPress={onPair}>{t('machines.page.pair')}</Button>}
      {!archived && mayEdit && (
        <Link href={machinePaths.edit(businessId, machine.id)} variant="button">
          {t('machines.page.edit')}
        </Link>
      )}
      <Link href={machinePaths.evidence(businessId, machine.id)} variant="button">
        {t('machines.page.evidence')}
      </Link>
      {mayArchive && (
        <Button variant={archived ? 'secondary' : 'danger'} onPress={onArchive}>
          {archived ? t('machines.page.unarchive') : t('machines.page.archive')}
        </Button>
      )}
    </>
  );
}

/** Out of order and Payments enabled: each asks before it changes (MachineConfirmDialogs). */
function MachineSwitches({
  machine,
  isDisabled,
  onAsk,
}: {
  machine: Machine;
  isDisabled: boolean;
  onAsk: (what: Confirm) => void;
}) {
  // Payments are set through updateMachine: the switch only for who may call it (Details says which).
  const mayUpdate = useMayCall(['machines', 'updateMachine']);
  return (
    <div className="toolbar machine-switches">
      <Switch
        isSelected={machine.outOfOrderStatus !== null}
        isDisabled={isDisabled}
        onChange={() => onAsk('outOfOrder')}
      >
        {t('machines.outOfOrder')}
      </Switch>
      {mayUpdate && (
        <Switch isSelected={machine.paymentsEnabled} isDisabled={isDisabled} onChange={() => onAsk('payments')}>
          {t('machines.page.paymentsEnabled')}
        </Switch>
      )}
    </div>
  );
}

/** Events, contents, status reports and temperature, one tab each. */
function MachineTabsOf({ businessId, machine }: { businessId: string; machine: Machine }) {
  return (
    <Tabs
      label={t('machines.page.tabs')}
      tabs={[
        { id: 'events', label: t('machines.page.tab.events'), content: <MachineEvents machineId={machine.id} /> },
        {
          id: 'contents',
          label: t('machines.page.tab.contents'),
          content: <MachineContents businessId={businessId} machineId={machine.id} />,
        },
        {
          id: 'status',
          label: t('machines.page.tab.status'),
          content: <MachineStatusReports machineId={machine.id} />,
        },
        {
          id: 'temperature',
          label: t('machines.page.tab.temperature'),
          content: <TemperatureTab machineId={machine.id} updated={machine.temperatureStatus?.updated ?? null} />,
        },
      ]}
    />
  );
}
