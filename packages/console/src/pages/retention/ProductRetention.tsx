import { retentionFields } from '@medlocker/core';
import { rpc } from '../../api/client.ts';
import { useRpcQuery } from '../../api/queries.ts';
import { QueryView } from '../../ui/QueryView.tsx';
import { t } from './i18n/index.ts';
import { PeriodsForm, periodValue, RetentionPreview, textsOf } from './retention-parts.tsx';

/**
 * Global Settings' retention policy (support): the product's periods, saved in place, and what the next
 * nightly run would remove across every business.
 */
export function ProductRetention() {
  const query = useRpcQuery(['dataProtection', 'getRetentionPolicy'], {}, { fresh: true });
  return (
    <section aria-labelledby="retention-heading">
      <h2 id="retention-heading" className="section-title">
        {t('retention.product.title')}
      </h2>
      <p>{t('retention.product.lead')}</p>
      <QueryView query={query}>
        {(data) => (
          <>
            <PeriodsForm
              initial={textsOf(data.policy)}
              send={(texts) =>
                rpc(
                  'dataProtection',
                  'updateRetentionPolicy',
                  Object.fromEntries(retentionFields.map((f) => [f, periodValue(texts[f])])),
                )
              }
              saved={t('retention.product.saved')}
              submitLabel={t('retention.product.save')}
              onSaved={query.reload}
            />
            <RetentionPreview counts={data.preview} title={t('retention.nextRun')} />
          </>
        )}
      </QueryView>
    </section>
  );
}
