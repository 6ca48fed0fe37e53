import { counted, labelSizeNames } from '@medlocker/core';
import { useEffect, useRef } from 'react';
import { createPortal } from 'react-dom';
import { useParams, useSearchParams } from 'react-router';
import { rpc } from '../../../api/client.ts';
import { useQuery } from '../../../api/queries.ts';
import { orderPaths } from '../../../paths.ts';
import { useFlashNotice } from '../../../shell/flash.ts';
import { Banner } from '../../../ui/Banner.tsx';
import { Button } from '../../../ui/Button.tsx';
import { Link } from '../../../ui/Link.tsx';
import { LoadError } from '../../../ui/LoadError.tsx';
import { Loading } from '../../../ui/Page.tsx';
import { Section } from '../../../ui/Section.tsx';
import { BagLabelCard } from './BagLabelCard.tsx';

/**
 * `/businesses/{businessId}/orders/labels?ids=a,b`: the bag labels of these orders, shown, then printed
 * once drawn (the browser's print opens by itself; Print opens it again). Only the labels print, a page
 * each at the business's label size (styles.css, Bag labels): they are drawn a second time at the end of
 * the document, outside the console's frame, which print hides. Loaded with its own chunk (bwip-js).
 */
export function OrderLabels() {
  const { businessId = '' } = useParams();
  const [search] = useSearchParams();
  const ids = (search.get('ids') ?? '').split(',').filter((id) => id !== '');
  const notice = useFlashNotice();
  const query = useQuery(
    (signal) => rpc('orders', 'getLabels', { ids }, { signal }),
    ['orders', 'getLabels', ids.join(',')],
  );
  const labels = query.data?.labels;
  const printed = useRef(false);
  useEffect(() => {
    if (!labels || labels.length === 0 || printed.current) return;
    printed.current = true;
    window.print();
  }, [labels]);

  const back =
    ids.length === 1 && ids[0] ? (
      <Link href={orderPaths.order(businessId, ids[0])}>Back to the order</Link>
    ) : (
      <Link href={orderPaths.list(businessId)}>Back to orders</Link>
    );
  const title = ids.length === 1 ? 'Bag label' : `Bag labels (${ids.length})`;
  if (!labels) {
    return (
      <Section title={title}>
        {query.error ? <LoadError error={query.error} onRetry={query.reload} /> : <Loading />}
        <p>{back}</p>
      </Section>
    );
  }
  const size = labels[0]?.size;
  return (
    <Section
      title={title}
      lead={size && `${counted(labels.length, 'label')}, ${labelSizeNames[size]}`}
      actions={
        <Button variant="primary" onPress={() => window.print()}>
          Print
        </Button>
      }
    >
      {notice && <Banner tone="success">{notice}</Banner>}
      <div className="label-preview">
        {labels.map((label, i) => (
          // An order asked for twice prints twice: its place in the list keys it.
          // biome-ignore lint/suspicious/noArrayIndexKey: the same order may be listed twice on purpose.
          <BagLabelCard key={`${label.orderId}-${i}`} label={label} />
        ))}
      </div>
      <p>{back}</p>
      {createPortal(
        <div className="label-print" aria-hidden="true">
          {labels.map((label, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: as above.
            <BagLabelCard key={`${label.orderId}-${i}`} label={label} />
          ))}
        </div>,
        document.body,
      )}
    </Section>
  );
}
