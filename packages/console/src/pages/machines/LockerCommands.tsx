import { type ReactNode, useState } from 'react';
import { type RpcOutput, rpc } from '../../api/client.ts';
import { useMayCall } from '../../state/access.ts';
import { useBusinessGroupId } from '../../state/current-business.ts';
import { useAdministers } from '../../state/reach.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { ConfirmDialog } from '../../ui/Dialog.tsx';
import { Select } from '../../ui/Select.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { useAction } from '../../ui/use-action.ts';

type Answer = RpcOutput<'machines', 'triggerStatus'>;
type Command = 'status' | 'configure' | 'restart' | null;

/** The server's words for an offline locker, shown beside the disabled commands. */
const offlineReason = 'The locker is offline: it cannot be reached now';

const answerWords: Record<Answer['status'], string> = {
  Accepted: 'accepted',
  Rejected: 'rejected',
  NotSupported: 'not supported',
};

/**
 * The commands sent to a connected locker (docs/LOCKER-PROTOCOL.md §7): Request status (support and
 * the business's Admins), Change configuration… and Restart… (support). Each asks first, then shows
 * what the locker answered; the command is on the Events tab as it happens. Offline, they are disabled
 * with the reason.
 */
export function LockerCommands({
  machineId,
  businessId,
  online,
}: {
  machineId: string;
  businessId: string;
  online: boolean;
}) {
  const groupId = useBusinessGroupId(businessId);
  const admin = useAdministers({ kind: 'business', id: businessId, groupId: groupId ?? null });
  const mayStatus = useMayCall(['machines', 'triggerStatus']) && admin === true;
  const mayConfigure = useMayCall(['machines', 'changeConfiguration']);
  const mayRestart = useMayCall(['machines', 'resetLocker']);
  const [open, setOpen] = useState<Command>(null);
  const [answer, setAnswer] = useState<{ text: string; accepted: boolean }>();
  if (!mayStatus && !mayConfigure && !mayRestart) return null;

  const done = (what: string) => (result: Answer) => {
    setOpen(null);
    setAnswer({ text: `${what}: ${answerWords[result.status]}.`, accepted: result.status === 'Accepted' });
  };
  const ask = (command: Command) => {
    setAnswer(undefined);
    setOpen(command);
  };
  return (
    <div className="locker-commands">
      <div className="toolbar">
        {mayStatus && (
          <Button variant="secondary" isDisabled={!online} onPress={() => ask('status')}>
            Request status
          </Button>
        )}
        {mayConfigure && (
          <Button variant="secondary" isDisabled={!online} onPress={() => ask('configure')}>
            Change configuration…
          </Button>
        )}
        {mayRestart && (
          <Button variant="danger" isDisabled={!online} onPress={() => ask('restart')}>
            Restart…
          </Button>
        )}
        {!online && <span className="muted">{offlineReason}</span>}
      </div>
      {answer && (
        <Banner tone={answer.accepted ? 'success' : 'warning'} title="The locker answered">
          {answer.text}
        </Banner>
      )}
      {open === 'status' && <StatusDialog machineId={machineId} onClose={() => setOpen(null)} onAnswer={done} />}
      {open === 'configure' && <ConfigureDialog machineId={machineId} onClose={() => setOpen(null)} onAnswer={done} />}
      {open === 'restart' && <RestartDialog machineId={machineId} onClose={() => setOpen(null)} onAnswer={done} />}
    </div>
  );
}

type DialogProps = {
  machineId: string;
  onClose: () => void;
  /** The handler of the locker's answer, given what was asked in words. */
  onAnswer: (what: string) => (answer: Answer) => void;
};

/** A confirmation whose call answers with the locker's status; a refusal (offline, silent) stays inside. */
function CommandDialog({
  title,
  confirmLabel,
  tone = 'primary',
  send,
  onClose,
  children,
}: {
  title: string;
  confirmLabel: string;
  tone?: 'primary' | 'danger';
  send: () => Promise<void>;
  onClose: () => void;
  children: ReactNode;
}) {
  const { pending, error, run } = useAction();
  return (
    <ConfirmDialog
      title={title}
      isOpen
      cancelLabel="Cancel"
      confirmLabel={confirmLabel}
      tone={tone}
      isPending={pending}
      error={error}
      onOpenChange={(isOpen) => !isOpen && !pending && onClose()}
      onConfirm={() => void run(send)}
    >
      {children}
    </ConfirmDialog>
  );
}

const messages = [
  { id: 'StatusNotification', label: 'Status (StatusNotification)' },
  { id: 'Heartbeat', label: 'Heartbeat' },
  { id: 'BootNotification', label: 'Boot notification' },
] as const;
type Requested = (typeof messages)[number]['id'];

function StatusDialog({ machineId, onClose, onAnswer }: DialogProps) {
  const [requested, setRequested] = useState<Requested>('StatusNotification');
  return (
    <CommandDialog
      title="Request status?"
      confirmLabel="Request status"
      onClose={onClose}
      send={async () =>
        onAnswer(`Send a ${requested}`)(await rpc('machines', 'triggerStatus', { id: machineId, requested }))
      }
    >
      <p>The locker is asked to send this message now; what it reports appears on the Status tab.</p>
      <Select
        label="Message"
        options={[...messages]}
        selectedKey={requested}
        onSelectionChange={(key) => key && setRequested(key as Requested)}
      />
    </CommandDialog>
  );
}

function ConfigureDialog({ machineId, onClose, onAnswer }: DialogProps) {
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');
  return (
    <CommandDialog
      title="Change configuration?"
      confirmLabel="Change configuration"
      onClose={onClose}
      send={async () =>
        onAnswer(`Set ${key.trim()} to "${value}"`)(
          await rpc('machines', 'changeConfiguration', { id: machineId, key: key.trim(), value }),
        )
      }
    >
      <p>One setting of the locker, by the name the locker gives it (e.g. HeartbeatInterval, in seconds).</p>
      <TextField label="Key" value={key} onChange={setKey} isRequired maxLength={64} />
      <TextField label="Value" value={value} onChange={setValue} maxLength={500} />
    </CommandDialog>
  );
}

function RestartDialog({ machineId, onClose, onAnswer }: DialogProps) {
  const [type, setType] = useState<'Soft' | 'Hard'>('Soft');
  return (
    <CommandDialog
      title="Restart the locker?"
      confirmLabel="Restart"
      tone="danger"
      onClose={onClose}
      send={async () => onAnswer(`Restart (${type})`)(await rpc('machines', 'resetLocker', { id: machineId, type }))}
    >
      <p>The locker goes offline while it restarts, then connects again. Patients cannot collect meanwhile.</p>
      <Select
        label="Kind of restart"
        options={[
          { id: 'Soft', label: 'Soft: restart its software' },
          { id: 'Hard', label: 'Hard: switch it off and on' },
        ]}
        selectedKey={type}
        onSelectionChange={(key) => key && setType(key as 'Soft' | 'Hard')}
      />
    </CommandDialog>
  );
}
