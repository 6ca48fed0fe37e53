import { evidenceMaxRangeDays, type EvidencePack as Pack } from '@medlocker/core';
import { useState } from 'react';
import { useParams } from 'react-router';
import { messageOf, rpc } from '../../api/client.ts';
import { useQuery } from '../../api/queries.ts';
import { machinePaths } from '../../paths.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { downloadFile } from '../../ui/download.ts';
import { Form } from '../../ui/Form.tsx';
import { Link } from '../../ui/Link.tsx';
import { LoadError } from '../../ui/LoadError.tsx';
import { Loading } from '../../ui/Page.tsx';
import { Section } from '../../ui/Section.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { ReasonDialog } from '../orders/ReasonDialog.tsx';
import { EventList, HoldButtons, OrderItem, TemperatureSummary, WhoActed } from './EvidenceParts.tsx';

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
    const n = `${orderIds.length} ${orderIds.length === 1 ? 'order' : 'orders'}`;
    setMessage(kind === 'hold' ? `PINs held for ${n}. The patients are told.` : `PINs released for ${n}.`);
    onChanged();
  };
  return (
    <>
      {message && <Banner tone="success">{message}</Banner>}
      <TemperatureSummary t={pack.temperature} />
      <h3>Alarms and outages</h3>
      <EventList events={pack.alarms} empty="No alarms or outages." label="Alarms and outages" />
      <h3>Orders inside the machine ({pack.orders.length})</h3>
      {pack.orders.length === 0 ? (
        <p className="empty">No orders were inside the machine in this range.</p>
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
          title={dialog === 'hold' ? `Hold ${toHold.length} PINs?` : `Release ${toRelease.length} PINs?`}
          label={dialog === 'hold' ? 'Reason for holding' : 'Reason for releasing'}
          cancelLabel="Cancel"
          confirmLabel={dialog === 'hold' ? 'Hold PINs' : 'Release PINs'}
          tone={dialog === 'hold' ? 'danger' : 'primary'}
          onConfirm={(reason) => act(dialog, reason)}
          onClose={() => setDialog(null)}
        >
          <p>
            {dialog === 'hold'
              ? 'The locker will refuse these PINs until they are released. Each patient is told their collection is paused.'
              : 'The locker will accept these PINs again. Each patient who can still collect is told.'}
          </p>
        </ReasonDialog>
      )}
    </>
  );
}

/** `/machines/{machineId}/evidence`: the machine's evidence pack over a range, holds and the download. */
export function EvidencePack() {
  const { businessId = '', machineId = '' } = useParams();
  const [now] = useState(() => Date.now());
  const [fromText, setFromText] = useState(() => toLocalInput(now - DAY));
  const [toText, setToText] = useState(() => toLocalInput(now));
  const [range, setRange] = useState({ from: now - DAY, to: now });
  const [rangeError, setRangeError] = useState<string>();
  const [downloading, setDownloading] = useState(false);
  const [downloadError, setDownloadError] = useState<string>();
  const query = useQuery(
    () => rpc('evidence', 'getEvidencePack', { machineId, ...range }),
    ['evidence', 'getEvidencePack', machineId, range.from, range.to],
  );
  const show = () => {
    const from = new Date(fromText).getTime();
    const to = new Date(toText).getTime();
    if (!Number.isFinite(from) || !Number.isFinite(to)) return setRangeError('Enter a start and an end');
    if (to <= from) return setRangeError('The end must be after the start');
    if (to - from > evidenceMaxRangeDays * DAY) {
      return setRangeError(`An evidence pack covers at most ${evidenceMaxRangeDays} days`);
    }
    setRangeError(undefined);
    setRange({ from, to });
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
      title={pack ? `Evidence pack: ${pack.machine.name}` : 'Evidence pack'}
      actions={
        <>
          <Link href={machinePaths.machine(businessId, machineId)} variant="button">
            Back to machine
          </Link>
          <Button variant="primary" onPress={() => void download()} isPending={downloading} isDisabled={!pack}>
            Download
          </Button>
        </>
      }
    >
      <p>
        What happened inside the machine between two times, the orders that were inside, what each patient was told and
        who acted. The download is a ZIP of a summary and CSV files with every reading.
      </p>
      <Form className="toolbar evidence__range" guardUnsaved={false} error={rangeError} submit={show}>
        <TextField label="From" name="from" type="datetime-local" value={fromText} onChange={setFromText} isRequired />
        <TextField label="To" name="to" type="datetime-local" value={toText} onChange={setToText} isRequired />
        <Button type="submit">Show</Button>
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
