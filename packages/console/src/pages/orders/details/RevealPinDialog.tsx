import { formatPin, type Order } from '@medlocker/core';
import { useState } from 'react';
import { Button } from '../../../ui/Button.tsx';
import { Dialog } from '../../../ui/Dialog.tsx';
import { ReasonDialog } from '../ReasonDialog.tsx';
import { t } from './i18n/index.ts';

/**
 * Reveal PIN: asks why (the reason is recorded on the order's timeline), then shows the PIN as patients read it (`1234 5678`) in this dialog
 * only. It is not kept anywhere once the dialog closes: asking again is another recorded reveal.
 */
export function RevealPinDialog({
  order,
  reveal,
  onClose,
}: {
  order: Pick<Order, 'reference' | 'patientName'>;
  /** Sends the reason; resolves with the PIN, or nothing when the order moved first (the page says so). */
  reveal: (reason: string) => Promise<string | undefined>;
  onClose: () => void;
}) {
  const [pin, setPin] = useState<string>();
  if (pin === undefined) {
    return (
      <ReasonDialog
        title={t('orderPage.revealPin.title', { reference: order.reference })}
        label={t('orderPage.revealPin.reason')}
        cancelLabel={t('orderPage.revealPin.keep')}
        confirmLabel={t('orderPage.revealPin.confirm')}
        tone="primary"
        onConfirm={async (reason) => {
          const revealed = await reveal(reason);
          if (revealed !== undefined) setPin(revealed);
        }}
        onClose={onClose}
      >
        <p>{t('orderPage.revealPin.body')}</p>
      </ReasonDialog>
    );
  }
  return (
    <Dialog
      title={t('orderPage.revealPin.shownTitle', { reference: order.reference })}
      isOpen
      onOpenChange={(open) => !open && onClose()}
    >
      <div className="dialog__body">
        <p>{t('orderPage.revealPin.shownLead', { patientName: order.patientName })}</p>
        <p>
          <strong className="pin">{formatPin(pin)}</strong>
        </p>
        <p className="muted">{t('orderPage.revealPin.shownOnce')}</p>
      </div>
      <div className="dialog__actions">
        <Button variant="primary" autoFocus onPress={onClose}>
          {t('orderPage.revealPin.close')}
        </Button>
      </div>
    </Dialog>
  );
}
