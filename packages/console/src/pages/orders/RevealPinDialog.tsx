import { formatPin, type Order } from '@medlocker/core';
import { useState } from 'react';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { ReasonDialog } from './ReasonDialog.tsx';

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
        title={`Reveal the PIN of order ${order.reference}?`}
        label="Reason for revealing the PIN"
        cancelLabel="Keep hidden"
        confirmLabel="Reveal PIN"
        tone="primary"
        onConfirm={async (reason) => {
          const revealed = await reveal(reason);
          if (revealed !== undefined) setPin(revealed);
        }}
        onClose={onClose}
      >
        <p>Who revealed it and why is recorded on the order's timeline.</p>
      </ReasonDialog>
    );
  }
  return (
    <Dialog title={`PIN of order ${order.reference}`} isOpen onOpenChange={(open) => !open && onClose()}>
      <div className="dialog__body">
        <p>The PIN {order.patientName} types at the locker:</p>
        <p>
          <strong className="pin">{formatPin(pin)}</strong>
        </p>
        <p className="muted">It is shown this once; revealing it again is recorded again.</p>
      </div>
      <div className="dialog__actions">
        <Button variant="primary" autoFocus onPress={onClose}>
          Close
        </Button>
      </div>
    </Dialog>
  );
}
