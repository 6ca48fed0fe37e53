import { type Alarm, alarmHolder, alarmNameInWords, alarmReasons, formatDateTime } from '@medlocker/core';
import { useState } from 'react';
import { rpc } from '../../api/client.ts';
import { useRpcQuery } from '../../api/queries.ts';
import { machinePaths } from '../../paths.ts';
import { Button } from '../../ui/Button.tsx';
import { ConfirmDialog } from '../../ui/Dialog.tsx';
import { Link } from '../../ui/Link.tsx';
import { QueryView } from '../../ui/QueryView.tsx';
import { Select } from '../../ui/Select.tsx';
import { TextArea } from '../../ui/TextArea.tsx';
import { useAction } from '../../ui/use-action.ts';
import { t } from './i18n/index.ts';

type Reason = keyof typeof alarmReasons;
const reasonOptions = Object.entries(alarmReasons).map(([id, label]) => ({ id, label }));

/**
 * Unresolved critical alarms (alarms.list) with who holds them: of one machine (its page) or of every
 * machine the user reaches (the dashboards). Acknowledge asks for a reason and a note; Resolve for a
 * note. Machine event pushes make the list stale (state/invalidate.ts), so it follows the locker.
 */
export function OpenAlarms({ businessId, machineId }: { businessId?: string; machineId?: string }) {
  const input = { ...(businessId ? { businessId } : {}), ...(machineId ? { machineId } : {}) };
  const query = useRpcQuery(['alarms', 'list', businessId ?? null, machineId ?? null], input);
  const [acting, setActing] = useState<{ alarm: Alarm; kind: 'acknowledge' | 'resolve' } | null>(null);
  const alarms = query.data?.alarms;
  if (machineId && alarms?.length === 0) return null;
  return (
    <section aria-labelledby="open-alarms" className="fleet__section">
      <h2 id="open-alarms" className="section-title">
        {alarms ? t('machines.alarms.titleCounted', { count: alarms.length }) : t('machines.alarms.title')}
      </h2>
      <QueryView query={query} loadingLabel={t('machines.alarms.loading')}>
        {(data) =>
          data.alarms.length === 0 ? (
            <p className="empty">{t('machines.alarms.none')}</p>
          ) : (
            <ul className="glance__list" aria-label={t('machines.alarms.title')}>
              {data.alarms.map((a) => (
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
                    {a.repeats > 0
                      ? t('machines.alarms.raisedRepeats', { at: formatDateTime(a.raisedAt), count: a.repeats })
                      : t('machines.alarms.raised', { at: formatDateTime(a.raisedAt) })}
                  </span>
                  <span className="muted">{alarmHolder(a)}</span>
                  <span className="toolbar">
                    {a.state === 'open' && (
                      <Button variant="secondary" onPress={() => setActing({ alarm: a, kind: 'acknowledge' })}>
                        {t('machines.alarms.acknowledgeMenu')}
                      </Button>
                    )}
                    <Button variant="secondary" onPress={() => setActing({ alarm: a, kind: 'resolve' })}>
                      {t('machines.alarms.resolveMenu')}
                    </Button>
                  </span>
                </li>
              ))}
            </ul>
          )
        }
      </QueryView>
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
      title={kind === 'acknowledge' ? t('machines.alarms.acknowledgeTitle') : t('machines.alarms.resolveTitle')}
      isOpen
      cancelLabel={t('machines.cancel')}
      confirmLabel={kind === 'acknowledge' ? t('machines.alarms.acknowledge') : t('machines.alarms.resolve')}
      isPending={pending}
      error={error}
      onOpenChange={(isOpen) => !isOpen && !pending && onClose(false)}
      onConfirm={() => void run(send)}
    >
      <p>
        {t(kind === 'acknowledge' ? 'machines.alarms.acknowledgeBody' : 'machines.alarms.resolveBody', {
          code: alarm.code,
          name: alarmNameInWords(alarm.name),
          machine: alarm.machineName,
        })}
      </p>
      {kind === 'acknowledge' && (
        <Select
          label={t('machines.alarms.reason')}
          options={reasonOptions}
          selectedKey={reason}
          onSelectionChange={(key) => key && setReason(key as Reason)}
        />
      )}
      <TextArea label={t('machines.alarms.note')} value={note} onChange={setNote} maxLength={500} />
    </ConfirmDialog>
  );
}
