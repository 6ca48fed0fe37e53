import { retentionFields } from '@medlocker/core';
import { rpc } from '../../api/client.ts';
import { useQuery } from '../../api/queries.ts';
import { QueryView } from '../../ui/QueryView.tsx';
import { PeriodsForm, periodValue, RetentionPreview, textsOf } from './retention-parts.tsx';

/**
 * Global Settings' retention policy (support): the product's periods, saved in place, and what the next
 * nightly run would remove across every business.
 */
export function ProductRetention() {
  const query = useQuery(
    (signal) => rpc('dataProtection', 'getRetentionPolicy', {}, { signal }),
    ['dataProtection', 'getRetentionPolicy'],
  );
  return (
    <section aria-labelledby="retention-heading">
      <h2 id="retention-heading" className="section-title">
        Retention policy
      </h2>
      <p>
        Each night what is past its period is removed, or anonymised where the monthly figures need the row. A business
        may set its own periods in its settings.
      </p>
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
              saved="Retention policy saved."
              submitLabel="Save retention policy"
              onSaved={query.reload}
            />
            <RetentionPreview counts={data.preview} title="The next run would remove" />
          </>
        )}
      </QueryView>
    </section>
  );
}
