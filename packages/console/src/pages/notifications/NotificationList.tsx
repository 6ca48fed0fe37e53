import { formatDateTime, type NotificationListItem } from '@medlocker/core';
import { useMemo, useState } from 'react';
import { rpc } from '../../api/client.ts';
import { queryClient } from '../../api/queries.ts';
import { useConsoleLocale } from '../../i18n/index.ts';
import { notificationsShownAtom } from '../../state/notifications.ts';
import { choiceCodec, useUrlState } from '../../state/url-filter.ts';
import { Button } from '../../ui/Button.tsx';
import { ConfirmButton } from '../../ui/Dialog.tsx';
import { type ListColumn, ListPage } from '../../ui/ListPage.tsx';
import { rpcListQuery } from '../../ui/rpc-list-query.ts';
import { Select } from '../../ui/Select.tsx';
import { DismissButton } from './DismissButton.tsx';
import { t } from './i18n/index.ts';
import { detailOf, NotificationDialog } from './NotificationDialog.tsx';

const shownCodec = choiceCodec<'unread'>(['unread']);
const shownOptions = () => [
  { id: 'all', label: t('notifications.show.all') },
  { id: 'unread', label: t('notifications.show.unread') },
];

/** Every ['notifications', …] answer: the list's pages and the bell's count. */
const refresh = () => queryClient.invalidateQueries({ queryKey: ['notifications'] });

/** When, where and what (the message opens the whole notification); Dismiss for who may. */
const columnsOf = (open: (n: NotificationListItem) => void): ListColumn<NotificationListItem>[] => [
  { key: 'time', header: t('notifications.column.time'), width: '9.5rem', render: (n) => formatDateTime(n.created) },
  {
    key: 'business',
    header: t('notifications.column.business'),
    width: 'minmax(7rem, 1fr)',
    render: (n) => n.businessName,
  },
  {
    key: 'machine',
    header: t('notifications.column.machine'),
    width: 'minmax(6rem, 1fr)',
    render: (n) => detailOf(n, 'machineName'),
  },
  { key: 'code', header: t('notifications.column.code'), width: '5.5rem', render: (n) => detailOf(n, 'code') },
  {
    key: 'message',
    header: t('notifications.column.message'),
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
    header: t('notifications.column.dismiss'),
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
  const [opened, setOpened] = useState<NotificationListItem | null>(null);
  const locale = useConsoleLocale();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the headers follow a change of language
  const columns = useMemo(() => columnsOf(setOpened), [locale]);

  return (
    <ListPage
      title={t('notifications.title')}
      filters={
        <Select
          label={t('notifications.show')}
          options={shownOptions()}
          selectedKey={shown ?? 'all'}
          onSelectionChange={(key) => setShown(key === 'unread' ? 'unread' : null)}
        />
      }
      query={rpcListQuery(['notifications', 'list', shown], 'notifications', (_search, nextToken) => ({
        unreadOnly: shown === 'unread',
        nextToken: nextToken ?? undefined,
      }))}
      actions={[
        {
          key: 'dismiss-all',
          method: ['notifications', 'dismissAll'],
          element: (
            <ConfirmButton
              label={t('notifications.dismissAll')}
              title={t('notifications.dismissAll.title')}
              cancelLabel={t('notifications.dismissAll.keep')}
              confirmLabel={t('notifications.dismissAll')}
              tone="primary"
              action={async () => {
                await rpc('notifications', 'dismissAll', {});
                await refresh();
              }}
            >
              <p>{t('notifications.dismissAll.text')}</p>
            </ConfirmButton>
          ),
        },
      ]}
      label={t('notifications.title')}
      columns={columns}
      emptyText={t('notifications.empty')}
    >
      {opened && <NotificationDialog notification={opened} onClose={() => setOpened(null)} onDismissed={refresh} />}
    </ListPage>
  );
}
