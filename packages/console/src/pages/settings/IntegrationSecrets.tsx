import type { IntegrationClientView } from '@medlocker/core';
import { useState } from 'react';
import { messageOf, rpc } from '../../api/client.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { DetailsItem } from '../../ui/Details.tsx';
import { ConfirmDialog } from '../../ui/Dialog.tsx';
import { Panel } from '../../ui/Section.tsx';
import { t } from './i18n/index.ts';

/** An integration client's credentials: its ID, masked secrets, new secrets, and removing it. */
export function IntegrationSecrets({
  client,
  archived,
  onNewSecret,
  onDeleted,
}: {
  client: IntegrationClientView;
  archived: boolean;
  onNewSecret: (label: string, secret: string) => void;
  onDeleted: () => void;
}) {
  const [pending, setPending] = useState<string>();
  const [error, setError] = useState<string>();
  const [deleting, setDeleting] = useState(false);

  const run = async (what: 'client' | 'webhook' | 'delete') => {
    setPending(what);
    setError(undefined);
    try {
      if (what === 'client') {
        const { secret } = await rpc('integration', 'generateClientSecret', { id: client.id });
        onNewSecret(t('businessSettings.secret.client'), secret);
      } else if (what === 'webhook') {
        const { webhookSecret } = await rpc('integration', 'generateWebhookSecret', { id: client.id });
        onNewSecret(t('businessSettings.secret.webhook'), webhookSecret);
      } else {
        await rpc('integration', 'deleteIntegrationClient', { id: client.id });
        setDeleting(false);
        onDeleted();
      }
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setPending(undefined);
    }
  };

  return (
    <Panel id="secrets-title" title={t('businessSettings.credentials.title')}>
      {error && <Banner tone="error">{error}</Banner>}
      <Credentials client={client} />
      {!archived && (
        <div className="page__actions">
          <Button onPress={() => void run('client')} isPending={pending === 'client'}>
            {client.hasSecret
              ? t('businessSettings.credentials.newClientSecret')
              : t('businessSettings.credentials.firstClientSecret')}
          </Button>
          <Button onPress={() => void run('webhook')} isPending={pending === 'webhook'}>
            {t('businessSettings.credentials.newWebhookSecret')}
          </Button>
          <Button variant="danger" onPress={() => setDeleting(true)}>
            {t('businessSettings.credentials.remove')}
          </Button>
        </div>
      )}
      <ConfirmDialog
        title={t('businessSettings.credentials.removeTitle')}
        isOpen={deleting}
        onOpenChange={(open) => !open && setDeleting(false)}
        cancelLabel={t('businessSettings.credentials.keep')}
        confirmLabel={t('businessSettings.credentials.remove')}
        onConfirm={() => void run('delete')}
        isPending={pending === 'delete'}
        error={error}
      >
        <p>{t('businessSettings.credentials.removeBody', { name: client.name })}</p>
      </ConfirmDialog>
    </Panel>
  );
}

/** The client's ID, its secrets as the server shows them (masked), and its use this period. */
function Credentials({ client }: { client: IntegrationClientView }) {
  return (
    <dl className="details details--flat">
      <DetailsItem term={t('businessSettings.credentials.clientId')}>
        <code>{client.id}</code>
      </DetailsItem>
      <DetailsItem term={t('businessSettings.credentials.clientSecret')}>
        {client.hasSecret ? <code>{client.secret}</code> : t('businessSettings.credentials.noneYet')}
      </DetailsItem>
      <DetailsItem term={t('businessSettings.credentials.webhookSecret')}>
        {client.webhookSecret ? <code>{client.webhookSecret}</code> : t('businessSettings.credentials.none')}
      </DetailsItem>
      <DetailsItem term={t('businessSettings.credentials.requests')}>
        {t('businessSettings.credentials.requestsOf', {
          made: client.rateLimit.requestsMade,
          limit: client.rateLimit.rateLimit,
        })}
      </DetailsItem>
    </dl>
  );
}
