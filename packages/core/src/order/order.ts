import { type } from 'arktype';
import { businessOwned, ChangedStamp, Id, stamps, Timestamp } from '../stamps.ts';
import { ExemptionCode } from './exemption-code.ts';
import { DeliveryStatus, OrderCreatedVia, OrderStatus, PaymentStatus } from './statuses.ts';

const pence = 'number.integer >= 0';

/** The last email sent about an order, as the mail provider reported it. */
export const EmailStatus = type({
  address: 'string',
  providerStatus: 'string | null',
  providerDetails: 'string | null',
  status: DeliveryStatus,
  templateKey: 'string',
  timestamp: Timestamp,
});
export type EmailStatus = typeof EmailStatus.infer;

/**
 * A patient's order: one bag to collect from a machine (SPEC §3). Money in pence; `collectionWindow`
 * in days; state stamps (`cancelled`, `markedCollected`, `markedRemoved`) null until they happen.
 * `machineDetails` and `patientDetails` are copies taken when the order was made.
 */
export const Order = type({
  id: Id,
  reference: 'string',
  businessId: Id,
  businessName: 'string',
  patientId: Id,
  patientName: 'string',
  barcode: 'string',
  machineId: 'string | null',
  machineName: 'string | null',
  machineSequence: 'number.integer | null',
  machinePayment: 'boolean',
  pin: 'string | null',
  status: OrderStatus,
  paymentStatus: PaymentStatus,
  paymentId: 'string | null',
  amountPaid: pence,
  prescriptionCharge: pence,
  retailCharge: pence,
  exemptionCode: ExemptionCode.or('null'),
  /**
   * The declaration. `signature` (a data URL, up to 64 KB) comes with one order (`orders/get` and the
   * answers of changes to it); lists leave it null, so a page of orders stays small.
   */
  exemptionDetails: type({
    nameOfDeclarant: 'string',
    onBehalfOfPatient: 'boolean',
    signature: 'string | null',
    /** When it was declared (ms); declarations stored before this was kept have only their timeline event. */
    'declaredAt?': Timestamp,
  }).or('null'),
  collectionWindow: 'number.integer > 0',
  collected: Timestamp.or('null'),
  cancelled: type({ cancelledAt: Timestamp, cancelledBy: Id, cancelledByDisplayName: 'string' }).or('null'),
  markedCollected: ChangedStamp.or('null'),
  markedRemoved: ChangedStamp.or('null'),
  expiresAt: Timestamp.or('null'),
  createdVia: OrderCreatedVia,
  createdBy: 'string | null',
  updatedBy: 'string | null',
  userId: 'string | null',
  receiptSent: 'boolean',
  messagesSuppressed: 'boolean',
  lastEmailStatus: EmailStatus.or('null'),
  lastNotificationStatus: DeliveryStatus.or('null'),
  machineDetails: type({ location: 'string | null', machineId: Id, machineName: 'string', pin: 'string | null' }).or(
    'null',
  ),
  patientDetails: 'Record<string, unknown> | null',
  /**
   * Present while staff hold the order's PIN (the evidence pack): the locker refuses it until
   * someone releases it. Who held it, when and why.
   */
  'pinHold?': type({ heldAt: Timestamp, heldBy: 'string', heldByDisplayName: 'string', reason: 'string' }),
  sequence: 'number.integer >= 0',
  ...stamps,
});
export type Order = typeof Order.infer;

/** Something that happened to an order, for its history (SPEC §3). */
export const OrderEvent = type({
  ...businessOwned,
  orderId: Id,
  orderReference: 'string',
  patientId: Id,
  code: 'string',
  barcode: 'string | null',
  message: 'string',
  data: 'Record<string, unknown> | null',
  fullPatientName: 'string',
  patientDisplayId: 'string',
  created: Timestamp,
});
export type OrderEvent = typeof OrderEvent.infer;

/**
 * A row of the collection report (SPEC §3): fields of the collected order as {@link Order} has them, with
 * its automatic-exemption mark and whether staff revealed its PIN. Money in pence.
 */
export const CollectionRecord = Order.pick(
  'id',
  'reference',
  'patientId',
  'patientName',
  'collected',
  'amountPaid',
  'exemptionCode',
  'prescriptionCharge',
  'retailCharge',
).and({ autoExempt: 'boolean', pinRevealed: 'boolean' });
export type CollectionRecord = typeof CollectionRecord.infer;
