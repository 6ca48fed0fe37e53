import { formatDateTime, type Order } from '@medlocker/core';
import { useState } from 'react';
import { rpc } from '../../../api/client.ts';
import { Banner } from '../../../ui/Banner.tsx';
import { Button } from '../../../ui/Button.tsx';
import { ReasonDialog } from '../ReasonDialog.tsx';
import { t } from './i18n/index.ts';

/**
 * A held PIN (held from a machine's evidence pack): who held it, when and why, and Release. The locker refuses
 * the PIN until someone releases it; the patient is told both times.
 */
export function PinHoldBanner({ order, onReleased }: { order: Order; onReleased: (text: string) => void }) {
  const [releasing, setReleasing] = useState(false);
  const hold = order.pinHold;
  if (!hold) return null;
  return (
    <>
      <Banner
        tone="warning"
        title={t('orderPage.pinHold.title')}
        action={<Button onPress={() => setReleasing(true)}>{t('orderPage.pinHold.release')}</Button>}
      >
        {t('orderPage.pinHold.body', {
          heldBy: hold.heldByDisplayName,
          heldAt: formatDateTime(hold.heldAt),
          reason: hold.reason,
        })}
      </Banner>
      {releasing && (
        <ReasonDialog
          title={t('orderPage.pinHold.dialogTitle')}
          label={t('orderPage.pinHold.reason')}
          cancelLabel={t('orderPage.pinHold.keep')}
          confirmLabel={t('orderPage.pinHold.release')}
          tone="primary"
          onConfirm={async (reason) => {
            await rpc('evidence', 'releasePins', { orderIds: [order.id], reason });
            setReleasing(false);
            onReleased(t('orderPage.pinHold.released'));
          }}
          onClose={() => setReleasing(false)}
        >
          <p>{t('orderPage.pinHold.dialogBody')}</p>
        </ReasonDialog>
      )}
    </>
  );
}
