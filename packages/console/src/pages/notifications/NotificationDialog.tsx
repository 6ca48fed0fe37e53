import { formatDateTime, machineAlerts, type NotificationListItem } from '@medlocker/core';
import type { ReactNode } from 'react';
import { consolePaths, machinePaths, orderPaths, webhookPaths } from '../../paths.ts';
import { Button } from '../../ui/Button.tsx';
import { DetailsItem as Item } from '../../ui/Details.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Link } from '../../ui/Link.tsx';
import { LevelBadge } from '../machines/MachineStatusBadges.tsx';
import { DismissButton } from './DismissButton.tsx';
import { t } from './i18n/index.ts';

/** A string the notification's details name (alarms: machineId, machineName, code; messages: orderId…). */
export const detailOf = (n: NotificationListItem, key: string): string => {
  const value = n.details?.[key];
  return typeof value === 'string' ? value : '';
};

/** 'EM_0016 · Alarm triggered'; the code alone when core does not know it. */
function codeText(code: string): string {
  const name = machineAlerts[code as keyof typeof machineAlerts]?.name;
  if (!name) return code;
  const words = name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return `${code} · ${words[0]?.toUpperCase()}${words.slice(1)}`;
}

// http(s) only, so nothing but a web address becomes a link; a sentence's full stop is not part of it.
const urlPattern = /https?:\/\/[^\s<>"]+[^\s<>".,;:!?)]/g;

/** The text with its web addresses as links (an alarm's support article), opening in a new tab. */
export function LinkedText({ text }: { text: string }) {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(urlPattern)) {
    const at = match.index ?? 0;
    parts.push(text.slice(last, at));
    parts.push(
      <a key={at} className="link" href={match[0]} target="_blank" rel="noreferrer">
        {match[0]}
      </a>,
    );
    last = at + match[0].length;
  }
  parts.push(text.slice(last));
  return <>{parts}</>;
}

/**
 * One notification whole (docs/decisions/console.md, Notifications open whole): its full text with the
 * support article as a link, when, how serious, and links to what it is about (the business, the
 * machine and its alarm code, the order, the webhook endpoint); Dismiss for who has not.
 */
export function NotificationDialog({
  notification: n,
  onClose,
  onDismissed,
}: {
  notification: NotificationListItem;
  onClose: () => void;
  onDismissed: () => Promise<unknown>;
}) {
  const machineId = detailOf(n, 'machineId');
  const machineName = detailOf(n, 'machineName');
  const code = detailOf(n, 'code');
  const orderId = detailOf(n, 'orderId');
  const integrationClientId = detailOf(n, 'integrationClientId');
  return (
    <Dialog title={n.title} isOpen onOpenChange={(open) => !open && onClose()}>
      <div className="dialog__body notification-detail">
        <p className="notification-detail__body">
          <LinkedText text={n.body || n.title} />
        </p>
        <dl className="details">
          <Item term={t('notifications.detail.time')}>{formatDateTime(n.created)}</Item>
          <Item term={t('notifications.detail.level')}>
            <LevelBadge level={n.level} />
          </Item>
          <Item term={t('notifications.detail.business')}>
            <Link href={consolePaths.business(n.businessId)}>{n.businessName}</Link>
          </Item>
          {machineId && (
            <Item term={t('notifications.detail.machine')}>
              <Link href={machinePaths.machine(n.businessId, machineId)}>
                {machineName || t('notifications.detail.openMachine')}
              </Link>
            </Item>
          )}
          {code && <Item term={t('notifications.detail.code')}>{codeText(code)}</Item>}
          {orderId && (
            <Item term={t('notifications.detail.order')}>
              <Link href={orderPaths.order(n.businessId, orderId)}>{t('notifications.detail.openOrder')}</Link>
            </Item>
          )}
          {integrationClientId && (
            <Item term={t('notifications.detail.webhooks')}>
              <Link href={webhookPaths.deliveries(n.businessId)}>{t('notifications.detail.openDeliveries')}</Link>
            </Item>
          )}
          {n.dismissed && (
            <Item term={t('notifications.detail.dismissed')}>
              {t('notifications.detail.dismissedBy', {
                at: formatDateTime(n.dismissed.dismissedAt),
                user: n.dismissed.dismissedByDisplayName,
              })}
            </Item>
          )}
        </dl>
      </div>
      <div className="dialog__actions">
        <Button autoFocus onPress={onClose}>
          {t('notifications.detail.close')}
        </Button>
        {!n.dismissed && (
          <DismissButton
            notification={n}
            onDismissed={async () => {
              await onDismissed();
              onClose();
            }}
          />
        )}
      </div>
    </Dialog>
  );
}
