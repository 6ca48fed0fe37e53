import { orderPaths } from '../../paths.ts';
import { Button } from '../../ui/Button.tsx';
import { Link } from '../../ui/Link.tsx';
import type { ListAction } from '../../ui/ListPage.tsx';
import { t } from './i18n/index.ts';

/** "Print labels" beside an order list's heading: the chosen orders' labels on one sheet or roll. */
export function printLabelsAction(businessId: string, orderIds: readonly string[]): ListAction {
  const label =
    orderIds.length === 0 ? t('orders.printLabels') : t('orders.printLabelsCount', { count: orderIds.length });
  return {
    key: 'print-labels',
    method: ['orders', 'getLabels'],
    element:
      orderIds.length === 0 ? (
        <Button isDisabled>{label}</Button>
      ) : (
        <Link href={orderPaths.labels(businessId, orderIds)} variant="button">
          {label}
        </Link>
      ),
  };
}
