import { useNavigate } from 'react-router';
import { rpc } from '../../api/client.ts';
import { queryClient } from '../../api/queries.ts';
import { orderPaths } from '../../paths.ts';
import { Button } from '../../ui/Button.tsx';
import { Form, FormActions } from '../../ui/Form.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { useSubmit } from '../../ui/use-submit.ts';
import { t } from './i18n/index.ts';

/**
 * New order from a bag's QR code (docs/ORDERS.md "QR-code orders"): a scanner types the code's text and
 * Enter. The order the code names is created (or, scanned before, found) and its page opens.
 */
export function ScanQrCode({ businessId }: { businessId: string }) {
  const navigate = useNavigate();
  const { pending, formProps } = useSubmit();
  const scan = async (data: FormData) => {
    const { order, existing } = await rpc('qrCodes', 'createOrder', {
      businessId,
      qrCode: String(data.get('qrCode') ?? ''),
    });
    void queryClient.invalidateQueries({ queryKey: ['orders'] });
    const notice = t(existing ? 'orders.qr.existing' : 'orders.qr.created', { reference: order.reference });
    navigate(orderPaths.order(businessId, order.id), { state: { notice } });
  };
  return (
    <Form className="form--page" {...formProps(scan)}>
      <TextField
        label={t('orders.qr.label')}
        name="qrCode"
        isRequired
        autoComplete="off"
        description={t('orders.qr.hint')}
      />
      <FormActions>
        <Button type="submit" isPending={pending}>
          {t('orders.qr.submit')}
        </Button>
      </FormActions>
    </Form>
  );
}
