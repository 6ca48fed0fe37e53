import { retentionFields } from '@medlocker/core';
import { rpc } from '../../api/client.ts';
import { useQuery } from '../../api/queries.ts';
import { QueryView } from '../../ui/QueryView.tsx';
import { useBusiness } from '../businesses/BusinessLayout.tsx';
import { SettingsHeader } from '../settings/settings-parts.tsx';
import { PeriodsForm, type PeriodTexts, periodValue, RetentionPreview, textsOf } from './retention-parts.tsx';

/**
 * `/businesses/{businessId}/settings/retention`: the business's own retention periods (blank: the
 * product's), saved by its Admin or support, and what the next nightly run would remove for it.
 */
export function BusinessRetentionPage() {
  const { business } = useBusiness();
  const query = useQuery(
    (signal) => rpc('dataProtection', 'getBusinessRetention', { businessId: business.id }, { signal }),
    ['dataProtection', 'getBusinessRetention', business.id],
  );
  return (
    <SettingsHeader title="Retention">
      <p>
        How long this business keeps what it holds. Leave a period blank to follow the product&apos;s policy. Each night
        what is past its period is removed, or anonymised where the monthly figures need the row.
      </p>
      <QueryView query={query}>
        {(data) => (
          <>
            <PeriodsForm
              initial={textsOf(data.overrides)}
              send={(texts) =>
                rpc('dataProtection', 'updateBusinessRetention', { businessId: business.id, ...blankAsProduct(texts) })
              }
              saved="Retention saved."
              submitLabel="Save retention"
              onSaved={query.reload}
              placeholders={data.product}
              isDisabled={Boolean(business.archived)}
            />
            <RetentionPreview counts={data.preview} title="The next run would remove" />
          </>
        )}
      </QueryView>
    </SettingsHeader>
  );
}

/** A blank period follows the product's (null); any other is sent as typed. */
const blankAsProduct = (texts: PeriodTexts) =>
  Object.fromEntries(retentionFields.map((f) => [f, texts[f].trim() === '' ? null : periodValue(texts[f])]));
