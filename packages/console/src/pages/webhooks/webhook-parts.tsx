import type { WebhookDelivery, WebhookOutcome } from '@medlocker/core';
import { queryClient } from '../../api/queries.ts';
import { webhookPaths } from '../../paths.ts';
import { Link } from '../../ui/Link.tsx';
import { useBusiness } from '../businesses/BusinessLayout.tsx';
import { t } from './i18n/index.ts';

/** A delivery's outcome as the console names it. */
export const outcomeLabel = (outcome: WebhookOutcome) => t(`webhooks.outcome.${outcome}`);
const outcomeTones: Record<WebhookOutcome, string> = { pending: 'info', succeeded: 'ok', failed: 'bad' };

export function OutcomeBadge({ outcome }: { outcome: WebhookOutcome }) {
  return <span className={`badge badge--${outcomeTones[outcome]}`}>{outcomeLabel(outcome)}</span>;
}

/** The last HTTP status a delivery got, or why it got none. */
export const lastAnswer = (d: Pick<WebhookDelivery, 'attempts' | 'lastStatus' | 'lastError'>) =>
  d.attempts === 0
    ? t('webhooks.notTried')
    : d.lastStatus !== null
      ? t('webhooks.httpStatus', { status: d.lastStatus })
      : (d.lastError ?? t('webhooks.noAnswer'));

/** After a replay, a test event or an endpoint change: the list, the header and any delivery read again. */
export const refreshWebhooks = () => queryClient.invalidateQueries({ queryKey: ['webhooks'] });

/** Settings / Integration / … : the way back from the delivery console's pages. */
export function WebhookBreadcrumb({ trail }: { trail: { label: string; href?: string }[] }) {
  const { business } = useBusiness();
  const steps = [
    { label: t('webhooks.breadcrumb.settings'), href: `/businesses/${encodeURIComponent(business.id)}/settings` },
    { label: t('webhooks.breadcrumb.integration'), href: webhookPaths.integration(business.id) },
    ...trail,
  ];
  return (
    <nav aria-label={t('webhooks.breadcrumb')} className="breadcrumb">
      {steps.map((step, i) => (
        <span key={step.label}>
          {i > 0 && <span aria-hidden="true"> / </span>}
          {step.href ? <Link href={step.href}>{step.label}</Link> : <span>{step.label}</span>}
        </span>
      ))}
    </nav>
  );
}
