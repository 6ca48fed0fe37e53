import { formatDateTime, type WebhookAttempt } from '@medlocker/core';
import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { type RpcOutput, rpc } from '../../api/client.ts';
import { useRpcQuery } from '../../api/queries.ts';
import { webhookPaths } from '../../paths.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { DetailsItem } from '../../ui/Details.tsx';
import { QueryView } from '../../ui/QueryView.tsx';
import { Section } from '../../ui/Section.tsx';
import { Cell, Column, Row, Table, TableBody, TableHeader } from '../../ui/Table.tsx';
import { useAction } from '../../ui/use-action.ts';
import { useBusiness } from '../businesses/BusinessLayout.tsx';
import { t } from './i18n/index.ts';
import { lastAnswer, OutcomeBadge, refreshWebhooks, WebhookBreadcrumb } from './webhook-parts.tsx';

/** While a delivery waits, its page reads it again this often: a replay's answer shows up by itself. */
const PENDING_POLL_MS = 2000;

/** Why an attempt was made, as the console names it. */
const triggerLabel = (trigger: WebhookAttempt['trigger']) => t(`webhooks.trigger.${trigger}`);

/**
 * `/businesses/{businessId}/settings/integration/webhooks/{deliveryId}`: one webhook message, its
 * attempts (time, why, HTTP status, latency, error, the start of the answer) and the body it sends,
 * with Replay.
 */
export function WebhookDeliveryPage() {
  const { business } = useBusiness();
  const { deliveryId = '' } = useParams();
  const query = useRpcQuery(['webhooks', 'getDelivery', deliveryId], { id: deliveryId });
  const { pending, error, run } = useAction();
  const [notice, setNotice] = useState<string>();
  const waiting = query.data?.delivery.status === 'pending';
  const { reload } = query;
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(reload, PENDING_POLL_MS);
    return () => clearInterval(timer);
  }, [waiting, reload]);

  const replay = async () => {
    setNotice(undefined);
    await run(async () => {
      await rpc('webhooks', 'replayDelivery', { id: deliveryId });
      setNotice(t('webhooks.delivery.queued'));
      await refreshWebhooks();
    });
  };

  return (
    <>
      <WebhookBreadcrumb
        trail={[
          { label: t('webhooks.list.title'), href: webhookPaths.deliveries(business.id) },
          { label: t('webhooks.breadcrumb.delivery') },
        ]}
      />
      <Section
        title={t('webhooks.delivery.title')}
        actions={
          query.data && !waiting && !business.archived ? (
            <Button variant="primary" onPress={() => void replay()} isPending={pending}>
              {t('webhooks.delivery.replay')}
            </Button>
          ) : undefined
        }
      >
        {error && <Banner tone="error">{error}</Banner>}
        {notice && <Banner tone="success">{notice}</Banner>}
        <QueryView query={query}>{(data) => <DeliveryView data={data} />}</QueryView>
      </Section>
    </>
  );
}

type Delivery = RpcOutput<'webhooks', 'getDelivery'>;

/** The message's event and outcome, each attempt, and the body it sends. */
function DeliveryView({ data: { delivery: d, event, attempts } }: { data: Delivery }) {
  return (
    <>
      <dl className="details details--flat">
        <DetailsItem term={t('webhooks.delivery.event')}>{d.eventType}</DetailsItem>
        <DetailsItem term={t('webhooks.delivery.webhookId')}>
          <code>{d.id}</code>
        </DetailsItem>
        <DetailsItem term={t('webhooks.delivery.outcome')}>
          <OutcomeBadge outcome={d.status} /> {lastAnswer(d)}
        </DetailsItem>
        <DetailsItem term={t('webhooks.delivery.made')}>{formatDateTime(d.created)}</DetailsItem>
        <DetailsItem
          term={d.status === 'pending' ? t('webhooks.delivery.nextAttempt') : t('webhooks.delivery.deliveredAt')}
        >
          {d.status === 'pending'
            ? d.nextAttemptAt === null
              ? t('webhooks.delivery.soon')
              : formatDateTime(d.nextAttemptAt)
            : d.deliveredAt === null
              ? t('webhooks.delivery.notDelivered')
              : formatDateTime(d.deliveredAt)}
        </DetailsItem>
      </dl>
      <h3 className="panel__title">{t('webhooks.delivery.attempts')}</h3>
      <AttemptsTable attempts={attempts} />
      <h3 className="panel__title">{t('webhooks.delivery.body')}</h3>
      <pre className="code-block">{JSON.stringify(event, null, 2)}</pre>
    </>
  );
}

/** Each attempt: when, why, the answer (status, latency, error, the start of the body). */
function AttemptsTable({ attempts }: { attempts: Delivery['attempts'] }) {
  return (
    <Table aria-label={t('webhooks.delivery.attempts')}>
      <TableHeader>
        <Column isRowHeader>{t('webhooks.attempt.time')}</Column>
        <Column>{t('webhooks.attempt.why')}</Column>
        <Column>{t('webhooks.attempt.status')}</Column>
        <Column>{t('webhooks.attempt.latency')}</Column>
        <Column>{t('webhooks.attempt.error')}</Column>
        <Column>{t('webhooks.attempt.response')}</Column>
      </TableHeader>
      <TableBody items={attempts} emptyText={t('webhooks.attempt.none')}>
        {(a) => (
          <Row id={a.id}>
            <Cell>{formatDateTime(a.attemptedAt)}</Cell>
            <Cell>{triggerLabel(a.trigger)}</Cell>
            <Cell>{a.status === null ? t('webhooks.noAnswer') : t('webhooks.httpStatus', { status: a.status })}</Cell>
            <Cell>{t('webhooks.attempt.latencyMs', { ms: a.latencyMs })}</Cell>
            <Cell>{a.error ?? ''}</Cell>
            <Cell>
              <span className="message-text">{a.responseExcerpt ?? ''}</span>
            </Cell>
          </Row>
        )}
      </TableBody>
    </Table>
  );
}
