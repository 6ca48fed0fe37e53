import { formatDateTime } from '@medlocker/core';
import { useState } from 'react';
import { rpc } from '../../api/client.ts';
import { useQuery } from '../../api/queries.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { ConfirmDialog } from '../../ui/Dialog.tsx';
import { QueryView } from '../../ui/QueryView.tsx';
import { useAction } from '../../ui/use-action.ts';
import { SecretReveal } from './SecretReveal.tsx';

/**
 * The business's QR signing key (docs/ORDERS.md "QR-code orders"): the pharmacy system signs each bag's
 * QR code with it. Made here and shown once in full, like an integration secret; a new one replaces it.
 */
export function QrSigningKey({ businessId, archived }: { businessId: string; archived: boolean }) {
  const query = useQuery(
    (signal) => rpc('qrCodes', 'getSigningKey', { businessId }, { signal }),
    ['qrCodes', 'getSigningKey', businessId],
  );
  const [revealed, setRevealed] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const action = useAction();
  const make = () =>
    action.run(async () => {
      const { key } = await rpc('qrCodes', 'rotateSigningKey', { businessId });
      setConfirming(false);
      setRevealed(key);
      query.reload();
    });

  return (
    <section className="panel" aria-labelledby="qr-key-title">
      <h3 id="qr-key-title" className="panel__title">
        QR signing key
      </h3>
      <p>
        With QR-code integration on, a pharmacy system that cannot call the API prints a QR code on each bag, signed
        with this key (HMAC-SHA256, format MLQR1). Scanned at a locker or on New order, it creates the order.
      </p>
      {action.error && !confirming && <Banner tone="error">{action.error}</Banner>}
      {revealed && <SecretReveal label="QR signing key" secret={revealed} onDone={() => setRevealed(null)} />}
      <QueryView query={query}>
        {({ key }) => (
          <>
            <p>{key ? `Made ${formatDateTime(key.created)} by ${key.createdBy || 'support'}.` : 'No key yet.'}</p>
            {!archived && (
              <div className="page__actions">
                <Button
                  onPress={() => (key ? setConfirming(true) : void make())}
                  isPending={action.pending && !confirming}
                >
                  {key ? 'Make a new QR signing key' : 'Make a QR signing key'}
                </Button>
              </div>
            )}
          </>
        )}
      </QueryView>
      <ConfirmDialog
        title="Make a new QR signing key?"
        isOpen={confirming}
        onOpenChange={(open) => !open && setConfirming(false)}
        cancelLabel="Keep the key"
        confirmLabel="Make a new key"
        onConfirm={() => void make()}
        isPending={action.pending}
        error={action.error}
      >
        <p>QR codes signed with the current key stop working: bags already labelled need new labels.</p>
      </ConfirmDialog>
    </section>
  );
}
