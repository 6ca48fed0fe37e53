import { type } from 'arktype';
import { Charge } from '../money/charge.ts';
import { PositiveInteger, Required } from '../validation/general.ts';

/**
 * An order as created from the console or the integration API (SPEC §5): barcode, business and
 * patient required; collection window (days) a positive integer; charges typed as pounds ('9.80')
 * and stored as pence. Left-out charges mean no charge.
 */
export const OrderInput = type({
  barcode: Required,
  businessId: Required,
  patientId: Required,
  'collectionWindow?': PositiveInteger,
  'prescriptionCharge?': Charge,
  'retailCharge?': Charge,
});
/** What a client sends. */
export type OrderInput = typeof OrderInput.inferIn;
/** What the service gets: charges in pence, window a number. */
export type ParsedOrderInput = typeof OrderInput.infer;
