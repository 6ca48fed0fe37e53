import { useNavigate } from 'react-router';
import { rpc } from '../../api/client.ts';
import { queryClient } from '../../api/queries.ts';
import { orderPaths } from '../../paths.ts';
import { Button } from '../../ui/Button.tsx';
import { Form, FormActions } from '../../ui/Form.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { useSubmit } from '../../ui/use-submit.ts';

/**
 * New order from a bag's QR code (docs/ORDERS.md "QR-code orders"): a scanner types the code's text and
 * Enter. The order the code names is created (or, scanned before, found) and its page opens.
 */
export function ScanQrCode({ businessId }: { businessId: string }) {
  const navigate = useNavigate();
  const { fieldErrors, error, pending, onSubmit } = useSubmit();
  const scan = async (data: FormData) => {
    const { order, existing } = await rpc('qrCodes', 'createOrder', {
      businessId,
      qrCode: String(data.get('qrCode') ?? ''),
    });
    void queryClient.invalidateQueries({ queryKey: ['orders'] });
    const notice = existing
      ? `Order ${order.reference} was already created from this QR code.`
      : `Order ${order.reference} created from its QR code.`;
    navigate(orderPaths.order(businessId, order.id), { state: { notice } });
  };
  return (
    <Form className="form--page" error={error} validationErrors={fieldErrors} onSubmit={onSubmit(scan)}>
      <TextField
        label="Scan QR code"
        name="qrCode"
        isRequired
        autoComplete="off"
        description="Scan the QR code on the bag: the order it names is created"
      />
      <FormActions>
        <Button type="submit" isPending={pending}>
          Create from QR code
        </Button>
      </FormActions>
    </Form>
  );
}
