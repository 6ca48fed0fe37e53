import { formatMonth, isoMonth, londonMonthOf } from '@medlocker/core';
import { useState } from 'react';
import { rpc } from '../../api/client.ts';
import { useAdministers } from '../../state/reach.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Button } from '../../ui/Button.tsx';
import { ConfirmDialog } from '../../ui/Dialog.tsx';
import { Select } from '../../ui/Select.tsx';
import { useAction } from '../../ui/use-action.ts';
import { t } from './i18n/index.ts';

/** The London months a report can be sent for: this one so far, then the 12 before it, newest first. */
function monthOptions(now: number) {
  const { year, month } = londonMonthOf(now);
  const index = year * 12 + month - 1;
  return Array.from({ length: 13 }, (_, i) => {
    const y = Math.floor((index - i) / 12);
    const m = ((index - i) % 12) + 1;
    return {
      id: isoMonth(y, m),
      label: i === 0 ? t('businesses.report.monthSoFar', { month: formatMonth(y, m) }) : formatMonth(y, m),
      year: y,
      month: m,
    };
  });
}

/**
 * The business's monthly report email: sent by itself on the 1st of each month to the
 * notification emails; support and the business's admins can send any recent month now (a resend).
 */
export function MonthlyReportEmail({
  business,
}: {
  business: { id: string; name: string; groupId: string | null; notificationEmails: string[] };
}) {
  const mayAct = useAdministers({ kind: 'business', id: business.id, groupId: business.groupId });
  const [options] = useState(() => monthOptions(Date.now()));
  const [open, setOpen] = useState(false);
  const [chosen, setChosen] = useState(options[1]?.id ?? '');
  const { pending, error, setError, run } = useAction();
  const [sent, setSent] = useState<string>();
  const hasRecipients = business.notificationEmails.length > 0;

  const send = async () => {
    const option = options.find((o) => o.id === chosen);
    if (!option) return;
    await run(async () => {
      const result = await rpc('reports', 'sendMonthlyEmail', {
        businessId: business.id,
        year: option.year,
        month: option.month,
      });
      const month = formatMonth(result.year, result.month);
      setSent(t('businesses.report.sent', { month, to: result.sentTo.join(', ') }));
      setOpen(false);
    });
  };

  return (
    <section aria-labelledby="monthly-report-title" className="monthly-report">
      <div className="section-head">
        <h2 className="section-title" id="monthly-report-title">
          {t('businesses.report.title')}
        </h2>
        {mayAct && hasRecipients && (
          <Button
            onPress={() => {
              setError(undefined);
              setSent(undefined);
              setOpen(true);
            }}
          >
            {t('businesses.report.email')}
          </Button>
        )}
      </div>
      <p>{hasRecipients ? t('businesses.report.lead') : t('businesses.report.noRecipients')}</p>
      {sent && <Banner tone="success">{sent}</Banner>}
      <ConfirmDialog
        title={t('businesses.report.confirmTitle')}
        isOpen={open}
        onOpenChange={(isOpen) => !isOpen && !pending && setOpen(false)}
        cancelLabel={t('businesses.cancel')}
        confirmLabel={t('businesses.report.send')}
        tone="primary"
        onConfirm={() => void send()}
        isPending={pending}
        error={error}
      >
        <p>{t('businesses.report.goesTo', { name: business.name, to: business.notificationEmails.join(', ') })}</p>
        <Select
          label={t('businesses.report.month')}
          options={options.map(({ id, label }) => ({ id, label }))}
          selectedKey={chosen}
          onSelectionChange={(key) => setChosen(String(key))}
        />
      </ConfirmDialog>
    </section>
  );
}
