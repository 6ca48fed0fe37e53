import {
  formatDateTime,
  type WebhookDelivery,
  type WebhookEventType,
  type WebhookOutcome,
  webhookEventTypes,
  webhookOutcomes,
} from '@medlocker/core';
import { useParams } from 'react-router';
import { rpc } from '../../api/client.ts';
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
import { type ListColumn, ListPage } from '../../ui/ListPage.tsx';
import { Select } from '../../ui/Select.tsx';
import { useBusiness } from '../businesses/BusinessLayout.tsx';
import { WebhookEndpointPanel } from './WebhookEndpointPanel.tsx';
import { lastAnswer, OutcomeBadge, outcomeLabels, WebhookBreadcrumb } from './webhook-parts.tsx';

const outcomeCodec = choiceCodec<WebhookOutcome>(webhookOutcomes);
const eventTypeCodec = choiceCodec<WebhookEventType>(webhookEventTypes);
const sinceCodec = choiceCodec<WebhookSince>(webhookSinceChoices);

const sinceLabels: Record<WebhookSince, string> = { '1h': 'Last hour', '24h': 'Last 24 hours', '7d': 'Last 7 days' };
const sinceMs: Record<WebhookSince, number> = { '1h': 3_600_000, '24h': 86_400_000, '7d': 7 * 86_400_000 };

const all = { id: 'all', label: 'All' };
const outcomeOptions = [all, ...webhookOutcomes.map((o) => ({ id: o, label: outcomeLabels[o] }))];
const eventTypeOptions = [all, ...webhookEventTypes.map((t) => ({ id: t, label: t }))];
const sinceOptions = [
  { id: 'all', label: 'All time' },
  ...webhookSinceChoices.map((s) => ({ id: s, label: sinceLabels[s] })),
];

/** A Select's choice: null for 'all'. */
const chosen = <T extends string>(key: unknown) => (key === 'all' || key === null ? null : (key as T));

/** When, what, how it went, and a link to its attempts and body. */
function deliveryColumns(businessId: string): ListColumn<WebhookDelivery>[] {
  return [
    { key: 'created', header: 'Time', width: '11rem', render: (d) => formatDateTime(d.created) },
    { key: 'event', header: 'Event', width: 'minmax(9rem, 1fr)', render: (d) => d.eventType },
    { key: 'outcome', header: 'Outcome', width: '6.5rem', render: (d) => <OutcomeBadge outcome={d.status} /> },
    { key: 'attempts', header: 'Attempts', width: '5.5rem', render: (d) => String(d.attempts) },
    { key: 'last', header: 'Last answer', width: 'minmax(8rem, 1fr)', render: lastAnswer },
    {
      key: 'view',
      header: 'Details',
      width: '4.5rem',
      render: (d) => (
        <Link
          href={webhookPaths.delivery(businessId, d.id)}
          aria-label={`View the ${d.eventType} delivery of ${formatDateTime(d.created)}`}
        >
          View
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
  return (
    <>
      <WebhookBreadcrumb trail={[{ label: 'Webhook deliveries' }]} />
      <ListPage
        title="Webhook deliveries"
        frame="section"
        lead="Every message sent to the integration's webhook URL, with each attempt."
        banner={<WebhookEndpointPanel businessId={businessId} archived={Boolean(business.archived)} />}
        filters={
          <>
            <Select
              label="Event"
              options={eventTypeOptions}
              selectedKey={eventType ?? 'all'}
              onSelectionChange={(key) => setEventType(chosen<WebhookEventType>(key))}
            />
            <Select
              label="Outcome"
              options={outcomeOptions}
              selectedKey={outcome ?? 'all'}
              onSelectionChange={(key) => setOutcome(chosen<WebhookOutcome>(key))}
            />
            <Select
              label="Since"
              options={sinceOptions}
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
        query={{
          key: ['webhooks', 'listDeliveries', businessId, eventType, outcome, since],
          load: async (_search, nextToken) => {
            const page = await rpc('webhooks', 'listDeliveries', {
              businessId,
              ...(eventType ? { eventType } : {}),
              ...(outcome ? { outcome } : {}),
              ...(since ? { since: Date.now() - sinceMs[since] } : {}),
              nextToken,
            });
            return { items: page.deliveries, nextToken: page.nextToken };
          },
        }}
        label="Webhook deliveries"
        columns={deliveryColumns(businessId)}
        emptyText="No webhook deliveries found"
      />
    </>
  );
}
