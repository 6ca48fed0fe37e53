import type { BusinessFeatureSettings } from '@medlocker/core';
import type { ReactNode } from 'react';
import { messageOf } from '../../api/client.ts';
import { useRpcQuery } from '../../api/queries.ts';
import { orderPaths } from '../../paths.ts';
import { AccessRestricted } from '../../shell/AccessRestricted.tsx';
import { useMayCall } from '../../state/access.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Link } from '../../ui/Link.tsx';
import { Loading } from '../../ui/Page.tsx';
import { Section } from '../../ui/Section.tsx';
import { useBusiness } from '../businesses/BusinessLayout.tsx';
import { t } from './i18n/index.ts';

/**
 * A page that creates orders (the form, the CSV import): for those the contract lets create orders
 * (support, and pharmacy users of the business: BusinessLayout has already refused anyone it does not
 * reach), never for an archived business, drawn once the business's feature settings are read.
 */
export function OrderCreation({
  title,
  children,
}: {
  title: string;
  children: (settings: BusinessFeatureSettings, businessId: string) => ReactNode;
}) {
  const { business } = useBusiness();
  const mayCreate = useMayCall(['orders', 'create']);
  const settings = useRpcQuery(['businessSettings', 'getBusinessFeatureSettings', business.id], {
    businessId: business.id,
  });

  if (!mayCreate) return <AccessRestricted inShell />;
  if (business.archived) {
    return (
      <Section title={title}>
        <Banner tone="warning">{t('orders.create.archived')}</Banner>
        <Link href={orderPaths.list(business.id)}>{t('orders.create.backToOrders')}</Link>
      </Section>
    );
  }
  return (
    <Section title={title}>
      {settings.data ? (
        children(settings.data.settings, business.id)
      ) : settings.error ? (
        <Banner tone="error">{messageOf(settings.error)}</Banner>
      ) : (
        <Loading />
      )}
    </Section>
  );
}
