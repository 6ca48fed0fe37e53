import { formatDateTime, type NotificationListItem } from '@medlocker/core';
import { useMemo, useState } from 'react';
import { rpc } from '../../api/client.ts';
import { queryClient } from '../../api/queries.ts';
import { notificationsShownAtom } from '../../state/notifications.ts';
import { choiceCodec, useUrlState } from '../../state/url-filter.ts';
import { Button } from '../../ui/Button.tsx';
import { ConfirmAction } from '../../ui/Dialog.tsx';
import { type ListColumn, ListPage } from '../../ui/ListPage.tsx';
import { Select } from '../../ui/Select.tsx';
import { DismissButton } from './DismissButton.tsx';
import { detailOf, NotificationDialog } from './NotificationDialog.tsx';

const shownCodec = choiceCodec<'unread'>(['unread']);
const shownOptions = [
  { id: 'all', label: 'All' },
  { id: 'unread', label: 'Not dismissed' },
];

/** Every ['notifications', …] answer: the list's pages and the bell's count. */
const refresh = () => queryClient.invalidateQueries({ queryKey: ['notifications'] });

/** When, where and what (the message opens the whole notification); Dismiss for who may. */
const columnsOf = (open: (n: NotificationListItem) => void): ListColumn<NotificationListItem>[] => [
  { key: 'time', header: 'Time', width: '9.5rem', render: (n) => formatDateTime(n.created) },
  { key: 'business', header: 'Business', width: 'minmax(7rem, 1fr)', render: (n) => n.businessName },
  { key: 'machine', header: 'Machine', width: 'minmax(6rem, 1fr)', render: (n) => detailOf(n, 'machineName') },
  { key: 'code', header: 'Code', width: '5.5rem', render: (n) => detailOf(n, 'code') },
  {
    key: 'message',
    header: 'Message',
    width: 'minmax(10rem, 2.5fr)',
    // One line here; the button opens the notification whole (its text, links and support article).
    render: (n) => (
      <Button variant="quiet" className="notification-open" onPress={() => open(n)}>
        {n.body || n.title}
      </Button>
    ),
  },
  {
    key: 'dismiss',
    header: 'Dismiss',
    width: '6.5rem',
    method: ['notifications', 'dismiss'],
    render: (n) => <DismissButton notification={n} onDismissed={refresh} />,
  },
];

/**
 * `/notifications`: the staff notifications the user may see (support: every business's; a pharmacy
 * user: their businesses'), newest first, paged as it scrolls; a row's message opens the notification
 * whole; Dismiss per row and Dismiss all behind a confirmation. Dismissing is the user's own (docs/decisions/messaging.md).
 */
export function NotificationList() {
  const [shown, setShown] = useUrlState('show', notificationsShownAtom, shownCodec);
  const [confirming, setConfirming] = useState(false);
  const [opened, setOpened] = useState<NotificationListItem | null>(null);
  const columns = useMemo(() => columnsOf(setOpened), []);

  return (
    <ListPage
      title="Notifications"
      filters={
        <Select
          label="Show"
          options={shownOptions}
          selectedKey={shown ?? 'all'}
          onSelectionChange={(key) => setShown(key === 'unread' ? 'unread' : null)}
        />
      }
      query={{
        key: ['notifications', 'list', shown],
        load: async (_search, nextToken) => {
          const page = await rpc('notifications', 'list', {
            unreadOnly: shown === 'unread',
            nextToken: nextToken ?? undefined,
          });
          return { items: page.notifications, nextToken: page.nextToken };
        },
      }}
      actions={[
        {
          key: 'dismiss-all',
          method: ['notifications', 'dismissAll'],
          element: <Button onPress={() => setConfirming(true)}>Dismiss all</Button>,
        },
      ]}
      label="Notifications"
      columns={columns}
      emptyText="No notifications found"
    >
      {opened && <NotificationDialog notification={opened} onClose={() => setOpened(null)} onDismissed={refresh} />}
      {confirming && (
        <ConfirmAction
          title="Dismiss all notifications?"
          isOpen
          cancelLabel="Keep them"
          confirmLabel="Dismiss all"
          tone="primary"
          action={async () => {
            await rpc('notifications', 'dismissAll', {});
            await refresh();
          }}
          onDone={() => setConfirming(false)}
          onCancel={() => setConfirming(false)}
        >
          <p>Every notification you have not dismissed will be marked as dismissed for you. Others still see theirs.</p>
        </ConfirmAction>
      )}
    </ListPage>
  );
}
