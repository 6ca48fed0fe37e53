import { useParams, useSearchParams } from 'react-router';
import { orderPaths } from '../../../paths.ts';
import { useFlashNotice } from '../../../shell/flash.ts';
import { Banner } from '../../../ui/Banner.tsx';
import { Button } from '../../../ui/Button.tsx';
import { Link } from '../../../ui/Link.tsx';
import { Section } from '../../../ui/Section.tsx';
import { LabelSheet } from './LabelSheet.tsx';

/**
 * `/businesses/{businessId}/orders/labels?ids=a,b`: the bag labels of these orders, printed once drawn
 * (LabelSheet); Print opens the browser's print again.
 */
export function OrderLabels() {
  const { businessId = '' } = useParams();
  const [search] = useSearchParams();
  const ids = (search.get('ids') ?? '').split(',').filter((id) => id !== '');
  const notice = useFlashNotice();
  const back =
    ids.length === 1 && ids[0] ? (
      <Link href={orderPaths.order(businessId, ids[0])}>Back to the order</Link>
    ) : (
      <Link href={orderPaths.list(businessId)}>Back to orders</Link>
    );
  return (
    <Section
      title={ids.length === 1 ? 'Bag label' : `Bag labels (${ids.length})`}
      actions={
        <Button variant="primary" onPress={() => window.print()}>
          Print
        </Button>
      }
    >
      {notice && <Banner tone="success">{notice}</Banner>}
      <LabelSheet ids={ids} />
      <p>{back}</p>
    </Section>
  );
}
