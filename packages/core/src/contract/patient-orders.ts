import { type } from 'arktype';
import { Order } from '../order/order.ts';
import { Id } from '../validation/string-limits.ts';
import { defineArea, staff } from './define.ts';

/**
 * What staff asking for a patient message get back: whether a message was queued and, either way, a
 * sentence saying what happened ("No message sent: …" when nothing was), which the order's timeline
 * also records. Never a pretend success: `sent` is false whenever no new message left.
 */
const MessageAnswer = type({ order: Order, sent: 'boolean', message: 'string' });

/**
 * Patient orders (SPEC §7 patientOrders). Staff ask here for a loaded order's patient messages again;
 * `list` and `get` (the patient page's) come with the patient front end. A loaded order that has not
 * expired only: any other state is 409 INVALID_TRANSITION naming it (docs/ORDERS.md).
 */
export const patientOrders = defineArea({
  resendOrderReadyMessage: {
    input: type({ orderId: Id }),
    output: MessageAnswer,
    access: staff({ order: 'orderId' }),
    summary:
      'Sends the patient of a loaded, unexpired order its order-ready message again (payment required instead while charges are unpaid at a paying machine); a second press within 10 s sends nothing more.',
  },
  sendOrderExpiryMessage: {
    input: type({ orderId: Id }),
    output: MessageAnswer,
    access: staff({ order: 'orderId' }),
    summary:
      'Sends the patient of a loaded, unexpired order the expiry reminder now; a second press within 10 s sends nothing more.',
  },
});
