import { type Alarm, alarmHolder, alarmNameInWords, alarmReasons, formatDateTime } from '@medlocker/core';
import { useState } from 'react';
import { rpc } from '../../api/client.ts';
import { useQuery } from '../../api/queries.ts';
import { machinePaths } from '../../paths.ts';
import { Button } from '../../ui/Button.tsx';
import { ConfirmDialog } from '../../ui/Dialog.tsx';
import { Link } from '../../ui/Link.tsx';
import { LoadError } from '../../ui/LoadError.tsx';
import { Loading } from '../../ui/Page.tsx';
import { Select } from '../../ui/Select.tsx';
import { TextArea } from '../../ui/TextArea.tsx';
import { useAction } from '../../ui/use-action.ts';

type Reason = keyof typeof alarmReasons;
const reasonOptions = Object.entries(alarmReasons).map(([id, label]) => ({ id, label }));

/**
 * Unresolved critical alarms (alarms.list) with who holds them: of one machine (its page) or of every
 * machine the user reaches (the dashboards). Acknowledge asks for a reason and a note; Resolve for a
 * note. Machine event pushes make the list stale (state/invalidate.ts), so it follows the locker.
 */
export function OpenAlarms({ businessId, machineId }: { businessId?: string; machineId?: string }) {
  const input = { ...(businessId ? { businessId } : {}), ...(machineId ? { machineId } : {}) };
  const query = useQuery(
    (signal) => rpc('alarms', 'list', input, { signal }),
    ['alarms', 'list', businessId ?? null, machineId ?? null],
  );
  const [acting, setActing] = useState<{ alarm: Alarm; kind: 'acknowledge' | 'resolve' } | null>(null);
  const alarms = query.data?.alarms;
  if (machineId && alarms?.length === 0) return null;
  return (
    <section aria-labelledby="open-alarms" className="fleet__section">
      <h2 id="open-alarms" className="section-title">
        Open alarms{alarms ? ` (${alarms.length})` : ''}
      </h2>
      {query.error ? (
        <LoadError error={query.error} onRetry={query.reload} />
      ) : !alarms ? (
        <Loading label="Loading alarms…" />
      ) : alarms.length === 0 ? (
        <p className="empty">No open alarms.</p>
      ) : (
        <ul className="glance__list" aria-label="Open alarms">
          {alarms.map((a) => (
            <li key={a.id} className="glance__item" aria-label={`${a.code} ${a.machineName}`}>
              <strong>
                {a.code} {alarmNameInWords(a.name)}
              </strong>
              <span>
                {machineId ? null : (
                  <>
                    <Link href={machinePaths.machine(a.businessId, a.machineId)}>{a.machineName}</Link>
                    {businessId ? '' : `, ${a.businessName}`}.{' '}
                  </>
                )}
                Raised {formatDateTime(a.raisedAt)}
                {a.repeats > 0 ? `, ${a.repeats} more time${a.repeats === 1 ? '' : 's'}` : ''}
              </span>
              <span className="muted">{alarmHolder(a)}</span>
              <span className="toolbar">
                {a.state === 'open' && (
                  <Button variant="secondary" onPress={() => setActing({ alarm: a, kind: 'acknowledge' })}>
                    Acknowledge…
                  </Button>
                )}
                <Button variant="secondary" onPress={() => setActing({ alarm: a, kind: 'resolve' })}>
                  Resolve…
                </Button>
              </span>
            </li>
          ))}
        </ul>
      )}
      {acting && (
        <AlarmDialog
          alarm={acting.alarm}
          kind={acting.kind}
          onClose={(done) => {
            setActing(null);
            if (done) query.reload();
          }}
        />
      )}
    </section>
  );
}

function AlarmDialog({
  alarm,
  kind,
  onClose,
}: {
  alarm: Alarm;
  kind: 'acknowledge' | 'resolve';
  onClose: (done: boolean) => void;
}) {
  const [reason, setReason] = useState<Reason>('attending');
  const [note, setNote] = useState('');
  const { pending, error, run } = useAction();
  const ids = { machineId: alarm.machineId, id: alarm.id };
  const send = async () => {
    if (kind === 'acknowledge') await rpc('alarms', 'acknowledge', { ...ids, reason, note });
    else await rpc('alarms', 'resolve', { ...ids, note });
    onClose(true);
  };
  return (
    <ConfirmDialog
      title={kind === 'acknowledge' ? 'Acknowledge the alarm?' : 'Resolve the alarm?'}
      isOpen
      cancelLabel="Cancel"
      confirmLabel={kind === 'acknowledge' ? 'Acknowledge' : 'Resolve'}
      isPending={pending}
      error={error}
      onOpenChange={(isOpen) => !isOpen && !pending && onClose(false)}
      onConfirm={() => void run(send)}
    >
      <p>
        {alarm.code} {alarmNameInWords(alarm.name)} at {alarm.machineName}.{' '}
        {kind === 'acknowledge'
          ? 'You hold it in your name: it is not escalated further.'
          : 'It is over: it leaves the open alarms.'}
      </p>
      {kind === 'acknowledge' && (
        <Select
          label="Reason"
          options={reasonOptions}
          selectedKey={reason}
          onSelectionChange={(key) => key && setReason(key as Reason)}
        />
      )}
      <TextArea label="Note" value={note} onChange={setNote} maxLength={500} />
    </ConfirmDialog>
  );
}
