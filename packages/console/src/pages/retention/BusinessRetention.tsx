import { type RetentionPolicy, retentionFields } from '@medlocker/core';
import { useState } from 'react';
import { rpc } from '../../api/client.ts';
import { useQuery } from '../../api/queries.ts';
import { Banner } from '../../ui/Banner.tsx';
import { PageForm, useSaveState } from '../../ui/PageForm.tsx';
import { QueryView } from '../../ui/QueryView.tsx';
import { useBusiness } from '../businesses/BusinessLayout.tsx';
import { SettingsHeader } from '../settings/settings-parts.tsx';
import { PeriodFields, type PeriodTexts, periodValue, RetentionPreview, textsOf } from './retention-parts.tsx';

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
            <OverridesForm
              businessId={business.id}
              initial={textsOf(data.overrides)}
              product={data.product}
              archived={Boolean(business.archived)}
              onSaved={query.reload}
            />
            <RetentionPreview counts={data.preview} title="The next run would remove" />
          </>
        )}
      </QueryView>
    </SettingsHeader>
  );
}

function OverridesForm({
  businessId,
  initial,
  product,
  archived,
  onSaved,
}: {
  businessId: string;
  initial: PeriodTexts;
  product: RetentionPolicy;
  archived: boolean;
  onSaved: () => void;
}) {
  const [texts, setTexts] = useState(initial);
  const [notice, setNotice] = useState<string>();
  const state = useSaveState();
  const save = async () => {
    setNotice(undefined);
    state.start();
    try {
      const input = Object.fromEntries(
        retentionFields.map((f) => [f, texts[f].trim() === '' ? null : periodValue(texts[f])]),
      );
      await rpc('dataProtection', 'updateBusinessRetention', { businessId, ...input });
      state.setPending(false);
      setNotice('Retention saved.');
      onSaved();
    } catch (e) {
      state.fail(e);
    }
  };
  return (
    <>
      {notice && <Banner tone="success">{notice}</Banner>}
      <PageForm state={state} save={save} submitLabel="Save retention" isDisabled={archived}>
        <PeriodFields texts={texts} onChange={setTexts} placeholders={product} isDisabled={archived} />
      </PageForm>
    </>
  );
}
