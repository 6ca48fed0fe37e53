import { formatDateTime, type WebhookEndpoint } from '@medlocker/core';
import { useState } from 'react';
import { messageOf, rpc } from '../../api/client.ts';
import { useQuery } from '../../api/queries.ts';
import { webhookPaths } from '../../paths.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { ConfirmDialog } from '../../ui/Dialog.tsx';
import { Link } from '../../ui/Link.tsx';
import { QueryView } from '../../ui/QueryView.tsx';
import { DetailsItem } from '../businesses/entity-parts.tsx';
import { SecretReveal } from '../settings/SecretReveal.tsx';
import { ReplayFailedDialog } from './ReplayFailedDialog.tsx';
import { refreshWebhooks } from './webhook-parts.tsx';

type Action = 'test' | 'enable' | 'rotate';

/**
 * The head of the delivery console: where webhooks go and how that is going (disabled, failing since,
 * waiting, failed, last delivered), with Enable again, Send test event, Replay failed since… and
 * Rotate secret (the new secret shown once; the old one keeps signing for 24 hours).
 */
export function WebhookEndpointPanel({ businessId, archived }: { businessId: string; archived: boolean }) {
  const query = useQuery(
    (signal) => rpc('webhooks', 'getEndpoint', { businessId }, { signal }),
    ['webhooks', 'getEndpoint', businessId],
  );
  return (
    <QueryView query={query}>
      {({ endpoint }) =>
        endpoint ? (
          <Endpoint endpoint={endpoint} businessId={businessId} archived={archived} />
        ) : (
          <Banner tone="info">
            This business has no integration yet.{' '}
            <Link href={webhookPaths.integration(businessId)}>Add one in the integration settings</Link>.
          </Banner>
        )
      }
    </QueryView>
  );
}

/**
 * Send test event, Enable again and Rotate secret: which one is running, and what it answered (a
 * notice, the new secret shown once, or the refusal).
 */
function useEndpointActions(businessId: string, clientId: string) {
  const [pending, setPending] = useState<Action>();
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const [secret, setSecret] = useState<string>();
  const [confirmRotate, setConfirmRotate] = useState(false);
  const run = async (action: Action) => {
    setPending(action);
    setError(undefined);
    setNotice(undefined);
    try {
      if (action === 'test') {
        await rpc('webhooks', 'sendTestEvent', { businessId });
        setNotice('Test event queued: it appears in the list below.');
      } else if (action === 'enable') {
        await rpc('webhooks', 'enableEndpoint', { businessId });
        setNotice('Webhooks enabled again: waiting deliveries are being sent.');
      } else {
        const { webhookSecret } = await rpc('integration', 'generateWebhookSecret', { id: clientId });
        setConfirmRotate(false);
        setSecret(webhookSecret);
      }
      await refreshWebhooks();
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setPending(undefined);
    }
  };

  return { pending, error, notice, setNotice, secret, setSecret, confirmRotate, setConfirmRotate, run };
}

function Endpoint({
  endpoint: e,
  businessId,
  archived,
}: {
  endpoint: WebhookEndpoint;
  businessId: string;
  archived: boolean;
}) {
  const { pending, error, notice, setNotice, secret, setSecret, confirmRotate, setConfirmRotate, run } =
    useEndpointActions(businessId, e.clientId);
  const [replaying, setReplaying] = useState(false);
  const sendable = e.url !== null && e.disabledAt === null && !archived;

  return (
    <section className="panel" aria-labelledby="endpoint-title">
      <h3 id="endpoint-title" className="panel__title">
        Endpoint
      </h3>
      {e.disabledAt !== null && (
        <DisabledBanner
          disabledAt={e.disabledAt}
          failingSince={e.failingSince}
          onEnable={archived ? undefined : () => void run('enable')}
          pending={pending === 'enable'}
        />
      )}
      {error && <Banner tone="error">{error}</Banner>}
      {notice && <Banner tone="success">{notice}</Banner>}
      {secret && <SecretReveal label="webhook signing secret" secret={secret} onDone={() => setSecret(undefined)} />}
      <EndpointFacts endpoint={e} />
      {!archived && (
        <div className="page__actions">
          <Button onPress={() => void run('test')} isPending={pending === 'test'} isDisabled={!sendable}>
            Send test event
          </Button>
          <Button onPress={() => setReplaying(true)} isDisabled={!sendable || e.failedCount === 0}>
            Replay failed since…
          </Button>
          <Button onPress={() => setConfirmRotate(true)}>Rotate secret</Button>
        </div>
      )}
      <ConfirmDialog
        title="Rotate the signing secret?"
        isOpen={confirmRotate}
        onOpenChange={(open) => !open && setConfirmRotate(false)}
        cancelLabel="Keep the secret"
        confirmLabel="Rotate secret"
        tone="primary"
        onConfirm={() => void run('rotate')}
        isPending={pending === 'rotate'}
        error={error}
      >
        <p>
          A new secret is made and shown once. The old one keeps signing beside it for 24 hours, so the receiver can
          change over without losing a message.
        </p>
      </ConfirmDialog>
      {replaying && (
        <ReplayFailedDialog
          businessId={businessId}
          onClose={(message) => {
            setReplaying(false);
            if (message) setNotice(message);
          }}
        />
      )}
    </section>
  );
}

/** Why nothing is sent, since when, and Enable again (not for an archived business). */
function DisabledBanner({
  disabledAt,
  failingSince,
  onEnable,
  pending,
}: {
  disabledAt: number;
  failingSince: number | null;
  onEnable?: () => void;
  pending: boolean;
}) {
  return (
    <Banner
      tone="warning"
      title="Webhooks are disabled"
      action={
        onEnable && (
          <Button onPress={onEnable} isPending={pending}>
            Enable again
          </Button>
        )
      }
    >
      Disabled {formatDateTime(disabledAt)}
      {failingSince !== null && ` after failing since ${formatDateTime(failingSince)}`}. Nothing is sent until it is
      enabled again.
    </Banner>
  );
}

/** Where the endpoint is, whether it works, and what waits or failed. */
function EndpointFacts({ endpoint: e }: { endpoint: WebhookEndpoint }) {
  return (
    <dl className="details details--flat">
      <DetailsItem term="Webhook URL">
        {e.url ? <code>{e.url}</code> : 'None: add one in the integration settings'}
      </DetailsItem>
      <DetailsItem term="State">
        {e.disabledAt !== null
          ? 'Disabled'
          : e.failingSince !== null
            ? `Failing since ${formatDateTime(e.failingSince)}`
            : 'Enabled'}
      </DetailsItem>
      <DetailsItem term="Waiting to be sent">{String(e.pendingCount)}</DetailsItem>
      <DetailsItem term="Failed">{String(e.failedCount)}</DetailsItem>
      <DetailsItem term="Last delivered">
        {e.lastSuccessAt === null ? 'Never' : formatDateTime(e.lastSuccessAt)}
      </DetailsItem>
    </dl>
  );
}
