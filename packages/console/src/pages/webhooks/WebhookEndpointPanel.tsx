import { formatDateTime, type WebhookEndpoint } from '@medlocker/core';
import { useState } from 'react';
import { messageOf, rpc } from '../../api/client.ts';
import { useRpcQuery } from '../../api/queries.ts';
import { webhookPaths } from '../../paths.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { DetailsItem } from '../../ui/Details.tsx';
import { ConfirmDialog } from '../../ui/Dialog.tsx';
import { Link } from '../../ui/Link.tsx';
import { QueryView } from '../../ui/QueryView.tsx';
import { Panel } from '../../ui/Section.tsx';
import { SecretReveal } from '../settings/SecretReveal.tsx';
import { t } from './i18n/index.ts';
import { ReplayFailedDialog } from './ReplayFailedDialog.tsx';
import { refreshWebhooks } from './webhook-parts.tsx';

type Action = 'test' | 'enable' | 'rotate';

/**
 * The head of the delivery console: where webhooks go and how that is going (disabled, failing since,
 * waiting, failed, last delivered), with Enable again, Send test event, Replay failed since… and
 * Rotate secret (the new secret shown once; the old one keeps signing for 24 hours).
 */
export function WebhookEndpointPanel({ businessId, archived }: { businessId: string; archived: boolean }) {
  const query = useRpcQuery(['webhooks', 'getEndpoint', businessId], { businessId });
  return (
    <QueryView query={query}>
      {({ endpoint }) =>
        endpoint ? (
          <Endpoint endpoint={endpoint} businessId={businessId} archived={archived} />
        ) : (
          <Banner tone="info">
            {t('webhooks.endpoint.noIntegration')}{' '}
            <Link href={webhookPaths.integration(businessId)}>{t('webhooks.endpoint.addIntegration')}</Link>
            {t('webhooks.endpoint.addIntegrationEnd')}
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
        setNotice(t('webhooks.endpoint.testQueued'));
      } else if (action === 'enable') {
        await rpc('webhooks', 'enableEndpoint', { businessId });
        setNotice(t('webhooks.endpoint.enabled'));
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
    <Panel id="endpoint-title" title={t('webhooks.endpoint.title')}>
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
      {secret && (
        <SecretReveal label={t('webhooks.endpoint.secretLabel')} secret={secret} onDone={() => setSecret(undefined)} />
      )}
      <EndpointFacts endpoint={e} />
      {!archived && (
        <div className="page__actions">
          <Button onPress={() => void run('test')} isPending={pending === 'test'} isDisabled={!sendable}>
            {t('webhooks.endpoint.sendTest')}
          </Button>
          <Button onPress={() => setReplaying(true)} isDisabled={!sendable || e.failedCount === 0}>
            {t('webhooks.endpoint.replayFailed')}
          </Button>
          <Button onPress={() => setConfirmRotate(true)}>{t('webhooks.endpoint.rotate')}</Button>
        </div>
      )}
      <ConfirmDialog
        title={t('webhooks.endpoint.rotateTitle')}
        isOpen={confirmRotate}
        onOpenChange={(open) => !open && setConfirmRotate(false)}
        cancelLabel={t('webhooks.endpoint.keepSecret')}
        confirmLabel={t('webhooks.endpoint.rotate')}
        tone="primary"
        onConfirm={() => void run('rotate')}
        isPending={pending === 'rotate'}
        error={error}
      >
        <p>{t('webhooks.endpoint.rotateBody')}</p>
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
    </Panel>
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
      title={t('webhooks.endpoint.disabledTitle')}
      action={
        onEnable && (
          <Button onPress={onEnable} isPending={pending}>
            {t('webhooks.endpoint.enableAgain')}
          </Button>
        )
      }
    >
      {failingSince === null
        ? t('webhooks.endpoint.disabledBody', { disabledAt: formatDateTime(disabledAt) })
        : t('webhooks.endpoint.disabledFailingBody', {
            disabledAt: formatDateTime(disabledAt),
            failingSince: formatDateTime(failingSince),
          })}
    </Banner>
  );
}

/** Where the endpoint is, whether it works, and what waits or failed. */
function EndpointFacts({ endpoint: e }: { endpoint: WebhookEndpoint }) {
  return (
    <dl className="details details--flat">
      <DetailsItem term={t('webhooks.endpoint.url')}>
        {e.url ? <code>{e.url}</code> : t('webhooks.endpoint.noUrl')}
      </DetailsItem>
      <DetailsItem term={t('webhooks.endpoint.state')}>
        {e.disabledAt !== null
          ? t('webhooks.endpoint.disabled')
          : e.failingSince !== null
            ? t('webhooks.endpoint.failingSince', { since: formatDateTime(e.failingSince) })
            : t('webhooks.endpoint.enabledState')}
      </DetailsItem>
      <DetailsItem term={t('webhooks.endpoint.waiting')}>{String(e.pendingCount)}</DetailsItem>
      <DetailsItem term={t('webhooks.endpoint.failed')}>{String(e.failedCount)}</DetailsItem>
      <DetailsItem term={t('webhooks.endpoint.lastDelivered')}>
        {e.lastSuccessAt === null ? t('webhooks.endpoint.never') : formatDateTime(e.lastSuccessAt)}
      </DetailsItem>
    </dl>
  );
}
