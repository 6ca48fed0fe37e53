import { formatDateTime, type OrderEvent, patientMessageNames, receiptTemplateKey } from '@medlocker/core';
import type { PagedQuery } from '../../../api/queries.ts';
import { Button } from '../../../ui/Button.tsx';
import { LoadError } from '../../../ui/LoadError.tsx';
import { Loading } from '../../../ui/Page.tsx';
import { Cell, Column, Row, Table, TableBody, TableHeader } from '../../../ui/Table.tsx';
import { t } from './i18n/index.ts';

const sources = ['portal', 'locker', 'integration', 'system', 'patient'] as const;
const isSource = (via: string): via is (typeof sources)[number] => (sources as readonly string[]).includes(via);

const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined);

/** Where the change came from: the console or cli, a locker (and its slot), a partner system, a job. */
function sourceOf(event: OrderEvent): string {
  const via = text(event.data?.via);
  const label = via ? (isSource(via) ? t(`orderPage.timeline.source.${via}` as const) : via) : t('orderPage.noValue');
  const location = text(event.data?.location);
  return location ? t('orderPage.timeline.sourceSlot', { source: label, location }) : label;
}

/**
 * Which patient message a message event is about ("SMS sent to 07••• •••123 — Expiry reminder"): the
 * sender's and the delivery reports' sentences name only the channel and the recipient.
 */
function messageKindOf(event: OrderEvent): string | undefined {
  if (!event.code.startsWith('MESSAGE_') || event.code === 'MESSAGE_REQUESTED') return undefined;
  const key = text(event.data?.templateKey);
  if (key === receiptTemplateKey) return t('orderPage.timeline.receipt');
  return key && Object.hasOwn(patientMessageNames, key)
    ? patientMessageNames[key as keyof typeof patientMessageNames]
    : undefined;
}

/**
 * Who did it: the person's name, for a locker the machine, for the patient page the patient (their
 * events name them only by id).
 */
function whoOf(event: OrderEvent, machineName: string | null, patientName: string): string {
  if (text(event.data?.via) === 'locker' && machineName) return machineName;
  if (text(event.data?.via) === 'patient') return t('orderPage.timeline.byPatient', { patientName });
  return text(event.data?.byName) ?? t('orderPage.noValue');
}

/**
 * The order's timeline (orders/listEvents): every change oldest first, 25 at a time with Show more for
 * the rest. Each row: when, what happened (the server's sentence, reasons included), who, and from
 * where. The query is the page's, so a live push that reloads the order reloads this too.
 */
export function OrderTimeline({
  events,
  machineName,
  patientName,
}: {
  events: PagedQuery<OrderEvent>;
  machineName: string | null;
  patientName: string;
}) {
  if (events.error && events.items.length === 0) return <LoadError error={events.error} onRetry={events.reload} />;
  if (events.items.length === 0 && events.isLoading) return <Loading />;
  return (
    <>
      <Table aria-label={t('orderPage.timeline.label')}>
        <TableHeader>
          <Column isRowHeader>{t('orderPage.timeline.when')}</Column>
          <Column>{t('orderPage.timeline.what')}</Column>
          <Column>{t('orderPage.timeline.who')}</Column>
          <Column>{t('orderPage.timeline.from')}</Column>
        </TableHeader>
        <TableBody items={events.items} emptyText={t('orderPage.timeline.empty')}>
          {(event) => (
            <Row id={event.id}>
              <Cell>{formatDateTime(event.created)}</Cell>
              <Cell>
                {event.message || event.code}
                {messageKindOf(event) && ` — ${messageKindOf(event)}`}
              </Cell>
              <Cell>{whoOf(event, machineName, patientName)}</Cell>
              <Cell>{sourceOf(event)}</Cell>
            </Row>
          )}
        </TableBody>
      </Table>
      {events.hasMore && (
        <Button onPress={events.loadMore} isPending={events.isLoading}>
          {t('orderPage.timeline.showMore')}
        </Button>
      )}
    </>
  );
}
