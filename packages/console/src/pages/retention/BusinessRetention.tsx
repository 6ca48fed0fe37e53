import { retentionFields } from '@medlocker/core';
import { rpc } from '../../api/client.ts';
import { useRpcQuery } from '../../api/queries.ts';
import { QueryView } from '../../ui/QueryView.tsx';
import { useBusiness } from '../businesses/BusinessLayout.tsx';
import { SettingsHeader } from '../settings/settings-parts.tsx';
import { t } from './i18n/index.ts';
import { PeriodsForm, type PeriodTexts, periodValue, RetentionPreview, textsOf } from './retention-parts.tsx';

/**
 * `/businesses/{businessId}/settings/retention`: the business's own retention periods (blank: the
 * product's), saved by its Admin or support, and what the next nightly run would remove for it.
 */
export function BusinessRetentionPage() {
  const { business } = useBusiness();
  const query = useRpcQuery(
    ['dataProtection', 'getBusinessRetention', business.id],
    { businessId: business.id },
    { fresh: true },
  );
  return (
    <SettingsHeader title={t('retention.business.title')}>
      <p>{t('retention.business.lead')}</p>
      <QueryView query={query}>
        {(data) => (
          <>
            <PeriodsForm
              initial={textsOf(data.overrides)}
              send={(texts) =>
                rpc('dataProtection', 'updateBusinessRetention', { businessId: business.id, ...blankAsProduct(texts) })
              }
              saved={t('retention.business.saved')}
              submitLabel={t('retention.business.save')}
              onSaved={query.reload}
              placeholders={data.product}
              isDisabled={Boolean(business.archived)}
            />
            <RetentionPreview counts={data.preview} title={t('retention.nextRun')} />
          </>
        )}
      </QueryView>
    </SettingsHeader>
  );
}

/** A blank period follows the product's (null); any other is sent as typed. */
const blankAsProduct = (texts: PeriodTexts) =>
  Object.fromEntries(retentionFields.map((f) => [f, texts[f].trim() === '' ? null : periodValue(texts[f])]));
