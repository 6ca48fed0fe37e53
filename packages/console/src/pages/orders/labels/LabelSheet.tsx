import { labelSizeNames } from '@medlocker/core';
import { useEffect, useRef } from 'react';
import { createPortal } from 'react-dom';
import { useRpcQuery } from '../../../api/queries.ts';
import { LoadError } from '../../../ui/LoadError.tsx';
import { Loading } from '../../../ui/Page.tsx';
import { BagLabelCard } from './BagLabelCard.tsx';
import { t } from './i18n/index.ts';

/**
 * These orders' bag labels, shown, then printed once drawn (the browser's print opens by itself). Only
 * the labels print, a page each at the business's label size (styles.css, Bag labels): they are drawn a
 * second time at the end of the document, outside the console's frame, which print hides. The print view
 * and the order import's result show it; it loads with its own chunk (bwip-js).
 */
export function LabelSheet({ ids }: { ids: readonly string[] }) {
  const query = useRpcQuery(['orders', 'getLabels', ids.join(',')], { ids: [...ids] });
  const labels = query.data?.labels;
  const printed = useRef(false);
  useEffect(() => {
    if (!labels || labels.length === 0 || printed.current) return;
    printed.current = true;
    window.print();
  }, [labels]);

  if (!labels) return query.error ? <LoadError error={query.error} onRetry={query.reload} /> : <Loading />;
  const size = labels[0]?.size;
  return (
    <>
      {size && (
        <p className="muted">{t('labels.sheet.summary', { count: labels.length, size: labelSizeNames[size] })}</p>
      )}
      <div className="label-preview">
        {labels.map((label, i) => (
          // An order asked for twice prints twice: its place in the list keys it.
          // biome-ignore lint/suspicious/noArrayIndexKey: the same order may be listed twice on purpose.
          <BagLabelCard key={`${label.orderId}-${i}`} label={label} />
        ))}
      </div>
      {createPortal(
        <div className="label-print" aria-hidden="true">
          {labels.map((label, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: as above.
            <BagLabelCard key={`${label.orderId}-${i}`} label={label} />
          ))}
        </div>,
        document.body,
      )}
    </>
  );
}
