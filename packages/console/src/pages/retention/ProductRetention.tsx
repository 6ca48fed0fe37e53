import { retentionFields } from '@medlocker/core';
import { useState } from 'react';
import { rpc } from '../../api/client.ts';
import { useQuery } from '../../api/queries.ts';
import { Banner } from '../../ui/Banner.tsx';
import { PageForm, useSaveState } from '../../ui/PageForm.tsx';
import { QueryView } from '../../ui/QueryView.tsx';
import { PeriodFields, type PeriodTexts, periodValue, RetentionPreview, textsOf } from './retention-parts.tsx';

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
            <PolicyForm initial={textsOf(data.policy)} onSaved={query.reload} />
            <RetentionPreview counts={data.preview} title="The next run would remove" />
          </>
        )}
      </QueryView>
    </section>
  );
}

function PolicyForm({ initial, onSaved }: { initial: PeriodTexts; onSaved: () => void }) {
  const [texts, setTexts] = useState(initial);
  const [notice, setNotice] = useState<string>();
  const state = useSaveState();
  const save = async () => {
    setNotice(undefined);
    state.start();
    try {
      const input = Object.fromEntries(retentionFields.map((f) => [f, periodValue(texts[f])]));
      await rpc('dataProtection', 'updateRetentionPolicy', input);
      state.setPending(false);
      setNotice('Retention policy saved.');
      onSaved();
    } catch (e) {
      state.fail(e);
    }
  };
  return (
    <>
      {notice && <Banner tone="success">{notice}</Banner>}
      <PageForm state={state} save={save} submitLabel="Save retention policy">
        <PeriodFields texts={texts} onChange={setTexts} />
      </PageForm>
    </>
  );
}
