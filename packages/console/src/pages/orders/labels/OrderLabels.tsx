import { useParams, useSearchParams } from 'react-router';
import { orderPaths } from '../../../paths.ts';
import { useFlashNotice } from '../../../shell/flash.ts';
import { Banner } from '../../../ui/Banner.tsx';
import { Button } from '../../../ui/Button.tsx';
import { Link } from '../../../ui/Link.tsx';
import { Section } from '../../../ui/Section.tsx';
import { t } from './i18n/index.ts';
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
      <Link href={orderPaths.order(businessId, ids[0])}>{t('labels.page.backToOrder')}</Link>
    ) : (
      <Link href={orderPaths.list(businessId)}>{t('labels.page.backToOrders')}</Link>
    );
  return (
    <Section
      title={ids.length === 1 ? t('labels.page.title') : t('labels.page.titleMany', { count: ids.length })}
      actions={
        <Button variant="primary" onPress={() => window.print()}>
          {t('labels.page.print')}
        </Button>
      }
    >
      {notice && <Banner tone="success">{notice}</Banner>}
      <LabelSheet ids={ids} />
      <p>{back}</p>
    </Section>
  );
}
