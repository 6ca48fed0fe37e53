import { useMayCall } from '../../state/access.ts';
import { t } from './i18n/index.ts';
import { OrderCreation } from './OrderCreation.tsx';
import { OrderForm } from './OrderForm.tsx';
import { ScanQrCode } from './ScanQrCode.tsx';

/**
 * `/businesses/{businessId}/orders/add`: the create-order form (OrderCreation says who may see it).
 * Which fields show and their defaults come from the business's feature settings.
 */
export function CreateOrder() {
  const mayScan = useMayCall(['qrCodes', 'createOrder']);
  return (
    <OrderCreation title={t('orders.create.title')}>
      {(settings, businessId) => (
        <>
          {mayScan && settings.qrCodeIntegration.enabled && <ScanQrCode businessId={businessId} />}
          <OrderForm businessId={businessId} settings={settings} />
        </>
      )}
    </OrderCreation>
  );
}
