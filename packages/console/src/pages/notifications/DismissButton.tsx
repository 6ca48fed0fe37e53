import type { NotificationListItem } from '@medlocker/core';
import { useState } from 'react';
import { messageOf, rpc } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';

/** A row's Dismiss; "Dismissed" once the user has, and the server's reason when it fails. */
export function DismissButton({
  notification: n,
  onDismissed,
}: {
  notification: NotificationListItem;
  onDismissed: () => Promise<unknown>;
}) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string>();
  if (n.dismissed) return <span className="muted">Dismissed</span>;
  const dismiss = async () => {
    setPending(true);
    setError(undefined);
    try {
      await rpc('notifications', 'dismiss', { id: n.id });
      await onDismissed();
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setPending(false);
    }
  };
  return (
    <span>
      <Button variant="quiet" onPress={() => void dismiss()} isPending={pending} aria-label={`Dismiss ${n.title}`}>
        Dismiss
      </Button>
      {error && (
        <span role="alert" className="notification-dismiss__error">
          {error}
        </span>
      )}
    </span>
  );
}
