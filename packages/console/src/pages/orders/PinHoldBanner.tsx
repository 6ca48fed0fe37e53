import { formatDateTime, type Order } from '@medlocker/core';
import { useState } from 'react';
import { rpc } from '../../api/client.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { ReasonDialog } from './ReasonDialog.tsx';

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
      <Banner tone="warning" title="PIN held" action={<Button onPress={() => setReleasing(true)}>Release PIN</Button>}>
        Held by {hold.heldByDisplayName} on {formatDateTime(hold.heldAt)}: {hold.reason}. The locker refuses this PIN
        until it is released.
      </Banner>
      {releasing && (
        <ReasonDialog
          title="Release this PIN?"
          label="Reason for releasing"
          cancelLabel="Keep held"
          confirmLabel="Release PIN"
          tone="primary"
          onConfirm={async (reason) => {
            await rpc('evidence', 'releasePins', { orderIds: [order.id], reason });
            setReleasing(false);
            onReleased('PIN released. The patient is told they can collect again.');
          }}
          onClose={() => setReleasing(false)}
        >
          <p>The locker will accept this order's PIN again.</p>
        </ReasonDialog>
      )}
    </>
  );
}
