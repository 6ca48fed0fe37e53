import {
  formatDateTime,
  type WebhookDelivery,
  type WebhookEventType,
  type WebhookOutcome,
  webhookEventTypes,
  webhookOutcomes,
} from '@medlocker/core';
import { useParams } from 'react-router';
import { webhookPaths } from '../../paths.ts';
import { choiceCodec, useUrlState } from '../../state/url-filter.ts';
import {
  type WebhookSince,
  webhookSinceChoices,
  webhooksEventTypeAtom,
  webhooksOutcomeAtom,
  webhooksSinceAtom,
} from '../../state/webhooks.ts';
import { Link } from '../../ui/Link.tsx';
import { createdColumn, type ListColumn, ListPage } from '../../ui/ListPage.tsx';
import { rpcListQuery } from '../../ui/rpc-list-query.ts';
import { Select } from '../../ui/Select.tsx';
import { useBusiness } from '../businesses/BusinessLayout.tsx';
import { t } from './i18n/index.ts';
import { WebhookEndpointPanel } from './WebhookEndpointPanel.tsx';
import { lastAnswer, OutcomeBadge, outcomeLabel, WebhookBreadcrumb } from './webhook-parts.tsx';

const outcomeCodec = choiceCodec<WebhookOutcome>(webhookOutcomes);
const eventTypeCodec = choiceCodec<WebhookEventType>(webhookEventTypes);
const sinceCodec = choiceCodec<WebhookSince>(webhookSinceChoices);

const sinceMs: Record<WebhookSince, number> = { '1h': 3_600_000, '24h': 86_400_000, '7d': 7 * 86_400_000 };

/** The filters' choices, in the active language: 'all' first. */
const filterOptions = () => {
  const all = { id: 'all', label: t('webhooks.list.all') };
  return {
    outcome: [all, ...webhookOutcomes.map((o) => ({ id: o, label: outcomeLabel(o) }))],
    eventType: [all, ...webhookEventTypes.map((type) => ({ id: type, label: type }))],
    since: [
      { id: 'all', label: t('webhooks.list.allTime') },
      ...webhookSinceChoices.map((s) => ({ id: s, label: t(`webhooks.since.${s}`) })),
    ],
  };
};

/** A Select's choice: null for 'all'. */
const chosen = <T extends string>(key: unknown) => (key === 'all' || key === null ? null : (key as T));

/** When, what, how it went, and a link to its attempts and body. */
function deliveryColumns(businessId: string): ListColumn<WebhookDelivery>[] {
  return [
    createdColumn('created', t('webhooks.column.time')),
    { key: 'event', header: t('webhooks.column.event'), width: 'minmax(9rem, 1fr)', render: (d) => d.eventType },
    {
      key: 'outcome',
      header: t('webhooks.column.outcome'),
      width: '6.5rem',
      render: (d) => <OutcomeBadge outcome={d.status} />,
    },
    { key: 'attempts', header: t('webhooks.column.attempts'), width: '5.5rem', render: (d) => String(d.attempts) },
    { key: 'last', header: t('webhooks.column.last'), width: 'minmax(8rem, 1fr)', render: lastAnswer },
    {
      key: 'view',
      header: t('webhooks.column.details'),
      width: '4.5rem',
      render: (d) => (
        <Link
          href={webhookPaths.delivery(businessId, d.id)}
          aria-label={t('webhooks.column.viewLabel', { event: d.eventType, created: formatDateTime(d.created) })}
        >
          {t('webhooks.column.view')}
        </Link>
      ),
    },
  ];
}

/**
 * `/businesses/{businessId}/settings/integration/webhooks`, the delivery console: the
 * endpoint's state and actions, then every webhook message newest first, filtered by event type,
 * outcome and time in the URL (`?outcome=failed`); each opens its attempts and body.
 */
export function WebhookDeliveries() {
  const { business } = useBusiness();
  const { businessId = business.id } = useParams();
  const [outcome, setOutcome] = useUrlState('outcome', webhooksOutcomeAtom, outcomeCodec);
  const [eventType, setEventType] = useUrlState('event', webhooksEventTypeAtom, eventTypeCodec);
  const [since, setSince] = useUrlState('since', webhooksSinceAtom, sinceCodec);
  const options = filterOptions();
  return (
    <>
      <WebhookBreadcrumb trail={[{ label: t('webhooks.list.title') }]} />
      <ListPage
        title={t('webhooks.list.title')}
        frame="section"
        lead={t('webhooks.list.lead')}
        banner={<WebhookEndpointPanel businessId={businessId} archived={Boolean(business.archived)} />}
        filters={
          <>
            <Select
              label={t('webhooks.filter.event')}
              options={options.eventType}
              selectedKey={eventType ?? 'all'}
              onSelectionChange={(key) => setEventType(chosen<WebhookEventType>(key))}
            />
            <Select
              label={t('webhooks.filter.outcome')}
              options={options.outcome}
              selectedKey={outcome ?? 'all'}
              onSelectionChange={(key) => setOutcome(chosen<WebhookOutcome>(key))}
            />
            <Select
              label={t('webhooks.filter.since')}
              options={options.since}
              selectedKey={since ?? 'all'}
              onSelectionChange={(key) => setSince(chosen<WebhookSince>(key))}
            />
          </>
        }
        clearFilters={() => {
          setOutcome(null);
          setEventType(null);
          setSince(null);
        }}
        filtered={outcome !== null || eventType !== null || since !== null}
        query={rpcListQuery(
          ['webhooks', 'listDeliveries', businessId, eventType, outcome, since],
          'deliveries',
          (_search, nextToken) => ({
            businessId,
            ...(eventType ? { eventType } : {}),
            ...(outcome ? { outcome } : {}),
            ...(since ? { since: Date.now() - sinceMs[since] } : {}),
            nextToken,
          }),
        )}
        label={t('webhooks.list.title')}
        columns={deliveryColumns(businessId)}
        emptyText={t('webhooks.list.empty')}
      />
    </>
  );
}
