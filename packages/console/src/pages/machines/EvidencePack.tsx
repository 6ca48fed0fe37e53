import { evidenceMaxRangeDays, type EvidencePack as Pack } from '@medlocker/core';
import { useState } from 'react';
import { useParams } from 'react-router';
import { messageOf, rpc } from '../../api/client.ts';
import { useRpcQuery } from '../../api/queries.ts';
import { machinePaths } from '../../paths.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { downloadFile } from '../../ui/download.ts';
import { Form } from '../../ui/Form.tsx';
import { Link } from '../../ui/Link.tsx';
import { LoadError } from '../../ui/LoadError.tsx';
import { Loading } from '../../ui/Page.tsx';
import { Section } from '../../ui/Section.tsx';
import { TextField, textFieldsOf } from '../../ui/TextField.tsx';
import { ReasonDialog } from '../orders/ReasonDialog.tsx';
import { EventList, HoldButtons, OrderItem, TemperatureSummary, WhoActed } from './EvidenceParts.tsx';
import { t } from './i18n/index.ts';

const DAY = 86_400_000;

/** ms → the value of a datetime-local field, in the browser's time zone ('2026-11-26T09:30'). */
const toLocalInput = (at: number) => {
  const d = new Date(at);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}`;
};

function PackView({ pack, businessId, onChanged }: { pack: Pack; businessId: string; onChanged: () => void }) {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [dialog, setDialog] = useState<'hold' | 'release' | null>(null);
  const [message, setMessage] = useState<string>();
  const chosen = pack.orders.filter((o) => selected.has(o.id));
  const toHold = chosen.filter((o) => o.live && !o.pinHold);
  const toRelease = chosen.filter((o) => o.pinHold);
  const act = async (kind: 'hold' | 'release', reason: string) => {
    const orders = kind === 'hold' ? toHold : toRelease;
    const orderIds = orders.map((o) => o.id);
    await rpc('evidence', kind === 'hold' ? 'holdPins' : 'releasePins', { orderIds, reason });
    setDialog(null);
    setSelected(new Set());
    const count = orderIds.length;
    setMessage(t(kind === 'hold' ? 'machines.evidence.held' : 'machines.evidence.released', { count }));
    onChanged();
  };
  return (
    <>
      {message && <Banner tone="success">{message}</Banner>}
      <TemperatureSummary temperature={pack.temperature} />
      <h3>{t('machines.evidence.alarms')}</h3>
      <EventList events={pack.alarms} empty={t('machines.evidence.noAlarms')} label={t('machines.evidence.alarms')} />
      <h3>{t('machines.evidence.orders', { count: pack.orders.length })}</h3>
      {pack.orders.length === 0 ? (
        <p className="empty">{t('machines.evidence.noOrders')}</p>
      ) : (
        <>
          <HoldButtons
            toHold={toHold.length}
            toRelease={toRelease.length}
            onAsk={(kind) => {
              setMessage(undefined);
              setDialog(kind);
            }}
          />
          <ul className="evidence__orders">
            {pack.orders.map((o) => (
              <OrderItem
                key={o.id}
                order={o}
                businessId={businessId}
                selected={selected.has(o.id)}
                onSelect={(on) =>
                  setSelected((s) => {
                    const next = new Set(s);
                    if (on) next.add(o.id);
                    else next.delete(o.id);
                    return next;
                  })
                }
              />
            ))}
          </ul>
        </>
      )}
      <WhoActed actions={pack.actions} />
      {dialog && (
        <ReasonDialog
          title={
            dialog === 'hold'
              ? t('machines.evidence.holdTitle', { count: toHold.length })
              : t('machines.evidence.releaseTitle', { count: toRelease.length })
          }
          label={dialog === 'hold' ? t('machines.evidence.holdReason') : t('machines.evidence.releaseReason')}
          cancelLabel={t('machines.cancel')}
          confirmLabel={dialog === 'hold' ? t('machines.evidence.hold') : t('machines.evidence.release')}
          tone={dialog === 'hold' ? 'danger' : 'primary'}
          onConfirm={(reason) => act(dialog, reason)}
          onClose={() => setDialog(null)}
        >
          <p>{dialog === 'hold' ? t('machines.evidence.holdBody') : t('machines.evidence.releaseBody')}</p>
        </ReasonDialog>
      )}
    </>
  );
}

/** What is wrong with a range typed in (ms from, to), if anything. */
function rangeProblem(from: number, to: number): string | undefined {
  if (!Number.isFinite(from) || !Number.isFinite(to)) return t('machines.evidence.rangeMissing');
  if (to <= from) return t('machines.evidence.rangeBackwards');
  if (to - from > evidenceMaxRangeDays * DAY)
    return t('machines.evidence.rangeTooLong', { days: evidenceMaxRangeDays });
  return undefined;
}

/** `/machines/{machineId}/evidence`: the machine's evidence pack over a range, holds and the download. */
export function EvidencePack() {
  const { businessId = '', machineId = '' } = useParams();
  const [now] = useState(() => Date.now());
  const [texts, setTexts] = useState(() => ({ from: toLocalInput(now - DAY), to: toLocalInput(now) }));
  const text = textFieldsOf(texts, setTexts);
  const [range, setRange] = useState({ from: now - DAY, to: now });
  const [rangeError, setRangeError] = useState<string>();
  const [downloading, setDownloading] = useState(false);
  const [downloadError, setDownloadError] = useState<string>();
  const query = useRpcQuery(['evidence', 'getEvidencePack', machineId, range.from, range.to], { machineId, ...range });
  const show = () => {
    const from = new Date(texts.from).getTime();
    const to = new Date(texts.to).getTime();
    const problem = rangeProblem(from, to);
    setRangeError(problem);
    if (!problem) setRange({ from, to });
  };
  const download = async () => {
    setDownloading(true);
    setDownloadError(undefined);
    try {
      downloadFile(await rpc('evidence', 'downloadEvidencePack', { machineId, ...range }));
    } catch (e) {
      setDownloadError(messageOf(e));
    } finally {
      setDownloading(false);
    }
  };
  const pack = query.data?.pack;
  return (
    <Section
      title={pack ? t('machines.evidence.titleOf', { name: pack.machine.name }) : t('machines.evidence.title')}
      actions={
        <>
          <Link href={machinePaths.machine(businessId, machineId)} variant="button">
            {t('machines.evidence.backToMachine')}
          </Link>
          <Button variant="primary" onPress={() => void download()} isPending={downloading} isDisabled={!pack}>
            {t('machines.evidence.download')}
          </Button>
        </>
      }
    >
      <p>{t('machines.evidence.lead')}</p>
      <Form className="toolbar evidence__range" guardUnsaved={false} error={rangeError} submit={show}>
        <TextField label={t('machines.evidence.from')} type="datetime-local" isRequired {...text('from')} />
        <TextField label={t('machines.evidence.to')} type="datetime-local" isRequired {...text('to')} />
        <Button type="submit">{t('machines.evidence.show')}</Button>
      </Form>
      {downloadError && <Banner tone="error">{downloadError}</Banner>}
      {query.error ? (
        <LoadError error={query.error} onRetry={query.reload} />
      ) : pack ? (
        <PackView key={`${range.from}-${range.to}`} pack={pack} businessId={businessId} onChanged={query.reload} />
      ) : (
        <Loading />
      )}
    </Section>
  );
}
