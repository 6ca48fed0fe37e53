import type { IntegrationClientView } from '@medlocker/core';
import { useState } from 'react';
import { messageOf, rpc } from '../../api/client.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { ConfirmDialog } from '../../ui/Dialog.tsx';

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
        onNewSecret('client secret', secret);
      } else if (what === 'webhook') {
        const { webhookSecret } = await rpc('integration', 'generateWebhookSecret', { id: client.id });
        onNewSecret('webhook signing secret', webhookSecret);
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
    <section className="panel" aria-labelledby="secrets-title">
      <h3 id="secrets-title" className="panel__title">
        Credentials
      </h3>
      {error && <Banner tone="error">{error}</Banner>}
      <Credentials client={client} />
      {!archived && (
        <div className="page__actions">
          <Button onPress={() => void run('client')} isPending={pending === 'client'}>
            {client.hasSecret ? 'Generate a new client secret' : 'Generate client secret'}
          </Button>
          <Button onPress={() => void run('webhook')} isPending={pending === 'webhook'}>
            Generate a new webhook secret
          </Button>
          <Button variant="danger" onPress={() => setDeleting(true)}>
            Remove integration
          </Button>
        </div>
      )}
      <ConfirmDialog
        title="Remove integration?"
        isOpen={deleting}
        onOpenChange={(open) => !open && setDeleting(false)}
        cancelLabel="Keep integration"
        confirmLabel="Remove integration"
        onConfirm={() => void run('delete')}
        isPending={pending === 'delete'}
        error={error}
      >
        <p>{client.name} will stop working with this business: its secret no longer works.</p>
      </ConfirmDialog>
    </section>
  );
}

/** The client's ID, its secrets as the server shows them (masked), and its use this period. */
function Credentials({ client }: { client: IntegrationClientView }) {
  return (
    <dl className="details details--flat">
      <div className="details__item">
        <dt>Client ID</dt>
        <dd>
          <code>{client.id}</code>
        </dd>
      </div>
      <div className="details__item">
        <dt>Client secret</dt>
        <dd>{client.hasSecret ? <code>{client.secret}</code> : 'None yet'}</dd>
      </div>
      <div className="details__item">
        <dt>Webhook signing secret</dt>
        <dd>{client.webhookSecret ? <code>{client.webhookSecret}</code> : 'None'}</dd>
      </div>
      <div className="details__item">
        <dt>Requests this period</dt>
        <dd>
          {client.rateLimit.requestsMade} of {client.rateLimit.rateLimit}
        </dd>
      </div>
    </dl>
  );
}
