import type { NotificationListItem } from '@medlocker/core';
import { useState } from 'react';
import { messageOf, rpc } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { t } from './i18n/index.ts';

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
  if (n.dismissed) return <span className="muted">{t('notifications.dismissed')}</span>;
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
      <Button
        variant="quiet"
        onPress={() => void dismiss()}
        isPending={pending}
        aria-label={t('notifications.dismissLabel', { title: n.title })}
      >
        {t('notifications.dismiss')}
      </Button>
      {error && (
        <span role="alert" className="notification-dismiss__error">
          {error}
        </span>
      )}
    </span>
  );
}
