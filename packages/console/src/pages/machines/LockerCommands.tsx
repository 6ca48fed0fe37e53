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
import { t } from './i18n/index.ts';

type Answer = RpcOutput<'machines', 'triggerStatus'>;
type Command = 'status' | 'configure' | 'restart' | null;

/** What the locker answered, in words. */
const answerWord = (status: Answer['status']) => t(`machines.commands.answer.${status}` as const);

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
    setAnswer({
      text: t('machines.commands.answered', { what, answer: answerWord(result.status) }),
      accepted: result.status === 'Accepted',
    });
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
            {t('machines.commands.status')}
          </Button>
        )}
        {mayConfigure && (
          <Button variant="secondary" isDisabled={!online} onPress={() => ask('configure')}>
            {t('machines.commands.configureMenu')}
          </Button>
        )}
        {mayRestart && (
          <Button variant="danger" isDisabled={!online} onPress={() => ask('restart')}>
            {t('machines.commands.restartMenu')}
          </Button>
        )}
        {/* The server's words for an offline locker, shown beside the disabled commands. */}
        {!online && <span className="muted">{t('machines.commands.offline')}</span>}
      </div>
      {answer && (
        <Banner tone={answer.accepted ? 'success' : 'warning'} title={t('machines.commands.answerTitle')}>
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
      cancelLabel={t('machines.cancel')}
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

const requestable = ['StatusNotification', 'Heartbeat', 'BootNotification'] as const;
type Requested = (typeof requestable)[number];
const messageOptions = () => requestable.map((id) => ({ id, label: t(`machines.commands.message.${id}` as const) }));

function StatusDialog({ machineId, onClose, onAnswer }: DialogProps) {
  const [requested, setRequested] = useState<Requested>('StatusNotification');
  return (
    <CommandDialog
      title={t('machines.commands.statusTitle')}
      confirmLabel={t('machines.commands.status')}
      onClose={onClose}
      send={async () =>
        onAnswer(t('machines.commands.statusAsked', { message: requested }))(
          await rpc('machines', 'triggerStatus', { id: machineId, requested }),
        )
      }
    >
      <p>{t('machines.commands.statusBody')}</p>
      <Select
        label={t('machines.commands.message')}
        options={messageOptions()}
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
      title={t('machines.commands.configureTitle')}
      confirmLabel={t('machines.commands.configure')}
      onClose={onClose}
      send={async () =>
        onAnswer(t('machines.commands.configureAsked', { key: key.trim(), value }))(
          await rpc('machines', 'changeConfiguration', { id: machineId, key: key.trim(), value }),
        )
      }
    >
      <p>{t('machines.commands.configureBody')}</p>
      <TextField label={t('machines.commands.key')} value={key} onChange={setKey} isRequired maxLength={64} />
      <TextField label={t('machines.commands.value')} value={value} onChange={setValue} maxLength={500} />
    </CommandDialog>
  );
}

function RestartDialog({ machineId, onClose, onAnswer }: DialogProps) {
  const [type, setType] = useState<'Soft' | 'Hard'>('Soft');
  return (
    <CommandDialog
      title={t('machines.commands.restartTitle')}
      confirmLabel={t('machines.commands.restart')}
      tone="danger"
      onClose={onClose}
      send={async () =>
        onAnswer(t('machines.commands.restartAsked', { type }))(
          await rpc('machines', 'resetLocker', { id: machineId, type }),
        )
      }
    >
      <p>{t('machines.commands.restartBody')}</p>
      <Select
        label={t('machines.commands.restartKind')}
        options={[
          { id: 'Soft', label: t('machines.commands.restart.Soft') },
          { id: 'Hard', label: t('machines.commands.restart.Hard') },
        ]}
        selectedKey={type}
        onSelectionChange={(key) => key && setType(key as 'Soft' | 'Hard')}
      />
    </CommandDialog>
  );
}
