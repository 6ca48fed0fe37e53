import type { NotificationListItem } from '@medlocker/core';
import { rpc } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { useAction } from '../../ui/use-action.ts';
import { t } from './i18n/index.ts';

/** A row's Dismiss; "Dismissed" once the user has, and the server's reason when it fails. */
export function DismissButton({
  notification: n,
  onDismissed,
}: {
  notification: NotificationListItem;
  onDismissed: () => Promise<unknown>;
}) {
  const { pending, error, run } = useAction();
  if (n.dismissed) return <span className="muted">{t('notifications.dismissed')}</span>;
  const dismiss = () =>
    run(async () => {
      await rpc('notifications', 'dismiss', { id: n.id });
      await onDismissed();
    });
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
