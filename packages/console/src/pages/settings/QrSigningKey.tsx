import { formatDateTime } from '@medlocker/core';
import { useState } from 'react';
import { rpc } from '../../api/client.ts';
import { useRpcQuery } from '../../api/queries.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { ConfirmDialog } from '../../ui/Dialog.tsx';
import { QueryView } from '../../ui/QueryView.tsx';
import { Panel } from '../../ui/Section.tsx';
import { useAction } from '../../ui/use-action.ts';
import { t } from './i18n/index.ts';
import { SecretReveal } from './SecretReveal.tsx';

/**
 * The business's QR signing key (docs/ORDERS.md "QR-code orders"): the pharmacy system signs each bag's
 * QR code with it. Made here and shown once in full, like an integration secret; a new one replaces it.
 */
export function QrSigningKey({ businessId, archived }: { businessId: string; archived: boolean }) {
  const query = useRpcQuery(['qrCodes', 'getSigningKey', businessId], { businessId });
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
    <Panel id="qr-key-title" title={t('businessSettings.qr.title')}>
      <p>{t('businessSettings.qr.lead')}</p>
      {action.error && !confirming && <Banner tone="error">{action.error}</Banner>}
      {revealed && (
        <SecretReveal label={t('businessSettings.secret.qr')} secret={revealed} onDone={() => setRevealed(null)} />
      )}
      <QueryView query={query}>
        {({ key }) => (
          <>
            <p>
              {key
                ? t('businessSettings.qr.made', {
                    when: formatDateTime(key.created),
                    by: key.createdBy || t('businessSettings.qr.bySupport'),
                  })
                : t('businessSettings.qr.none')}
            </p>
            {!archived && (
              <div className="page__actions">
                <Button
                  onPress={() => (key ? setConfirming(true) : void make())}
                  isPending={action.pending && !confirming}
                >
                  {key ? t('businessSettings.qr.makeNew') : t('businessSettings.qr.makeFirst')}
                </Button>
              </div>
            )}
          </>
        )}
      </QueryView>
      <ConfirmDialog
        title={t('businessSettings.qr.confirmTitle')}
        isOpen={confirming}
        onOpenChange={(open) => !open && setConfirming(false)}
        cancelLabel={t('businessSettings.qr.keep')}
        confirmLabel={t('businessSettings.qr.confirm')}
        onConfirm={() => void make()}
        isPending={action.pending}
        error={action.error}
      >
        <p>{t('businessSettings.qr.confirmBody')}</p>
      </ConfirmDialog>
    </Panel>
  );
}
