import { systemActor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import type { MessageOnOrder, OrderChange, OrderToMessage, Publish, Tx } from '../../delivery/messages/port.ts';
import { staleMessageReason } from './messages.ts';
import { eventRow, publishOrder } from './moves.ts';
import { pinOf } from './pin.ts';
import { findOrder, insertOrderEventRows, laterSentMessageExists, setOrderDeliveryStatus } from './repository.ts';

/*
 * The order's side of its messages, for the sender and the delivery reports (delivery/messages), which
 * reach it through the MessagePort and never import this area.
 */

/** The order of a message about to be sent: whether the message is still wanted, its PIN, its business's name. */
export async function orderToMessage(
  deps: AppDeps,
  tx: Tx,
  orderId: string,
  templateKey: string,
  now: number,
): Promise<OrderToMessage | undefined> {
  const order = await findOrder(tx, orderId);
  if (!order) return undefined;
  return {
    id: order.id,
    stale: staleMessageReason(templateKey, order, now),
    pin: () => pinOf(deps.config.secretsKey, order),
    businessName: order.businessName,
  };
}

/**
 * A message's outcome on its order, in the message's transaction: the order's last delivery status for
 * the message's channel (unless, when asked, a later message of the same kind was handed over since),
 * then a line on its timeline. Answers the push of the order as it now is, for after the commit.
 */
export async function recordMessageOnOrder(
  deps: AppDeps,
  tx: Tx,
  message: MessageOnOrder,
  change: OrderChange,
  now: number,
): Promise<Publish | undefined> {
  const { orderId } = message;
  if (!orderId) return undefined;
  const kinds = message.channel === 'email' ? (['email'] as const) : (['sms', 'whatsapp'] as const);
  const { delivery } = change;
  const setsStatus =
    delivery !== undefined && !(change.onlyIfLatest && (await laterSentMessageExists(tx, orderId, message.id, kinds)));
  const order = setsStatus
    ? await setOrderDeliveryStatus(tx, orderId, message, delivery, now)
    : await findOrder(tx, orderId);
  if (!order) return undefined;
  const { event } = change;
  if (event) {
    await insertOrderEventRows(tx, [eventRow(deps, systemActor(event.by), order, event.code, event.words, event.data)]);
  }
  return () => publishOrder(deps, order);
}
