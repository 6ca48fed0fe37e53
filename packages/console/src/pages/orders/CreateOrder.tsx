import { messageOf, rpc } from '../../api/client.ts';
import { useQuery } from '../../api/queries.ts';
import { orderPaths } from '../../paths.ts';
import { AccessRestricted } from '../../shell/AccessRestricted.tsx';
import { useMayCall } from '../../state/access.ts';
import { Banner } from '../../ui/Banner.tsx';
import { Link } from '../../ui/Link.tsx';
import { Loading } from '../../ui/Page.tsx';
import { Section } from '../../ui/Section.tsx';
import { useBusiness } from '../businesses/BusinessLayout.tsx';
import { OrderForm } from './OrderForm.tsx';
import { ScanQrCode } from './ScanQrCode.tsx';

const title = 'New order';

/**
 * `/businesses/{businessId}/orders/add`: the create-order form, for those the contract lets create
 * orders (support, and pharmacy users of the business: BusinessLayout has already refused anyone it
 * does not reach). Which fields show and their defaults come from the business's feature settings.
 */
export function CreateOrder() {
  const { business } = useBusiness();
  const mayCreate = useMayCall(['orders', 'create']);
  const mayScan = useMayCall(['qrCodes', 'createOrder']);
  const settings = useQuery(
    (signal) => rpc('businessSettings', 'getBusinessFeatureSettings', { businessId: business.id }, { signal }),
    ['businessSettings', 'getBusinessFeatureSettings', business.id],
  );

  if (!mayCreate) return <AccessRestricted inShell />;
  if (business.archived) {
    return (
      <Section title={title}>
        <Banner tone="warning">This business is archived: orders cannot be added.</Banner>
        <Link href={orderPaths.list(business.id)}>Back to the orders</Link>
      </Section>
    );
  }
  return (
    <Section title={title}>
      {settings.data ? (
        <>
          {mayScan && settings.data.settings.qrCodeIntegration.enabled && <ScanQrCode businessId={business.id} />}
          <OrderForm businessId={business.id} settings={settings.data.settings} />
        </>
      ) : settings.error ? (
        <Banner tone="error">{messageOf(settings.error)}</Banner>
      ) : (
        <Loading />
      )}
    </Section>
  );
}
