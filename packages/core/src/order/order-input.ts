import { type } from 'arktype';
import { Charge } from '../money/charge.ts';
import { positiveIntegerUpTo, Required } from '../validation/general.ts';
import { Id, stringLimits, upTo } from '../validation/string-limits.ts';
import { maxCollectionWindowDays } from './transitions.ts';

/** A bag's barcode: some text, at most 64 characters (longer is INVALID_LENGTH). */
export const Barcode = upTo(stringLimits.barcode, Required);

/**
 * A collection window in days: SPEC §5's positive whole number, and at most 90 (a longer one is a typo,
 * and a bag left that long in a locker is a pharmacy's problem, not a feature).
 */
export const CollectionWindow = positiveIntegerUpTo(maxCollectionWindowDays);

/** Why staff cancel an order or reveal its PIN: required, at most 500 characters. */
export const OrderReason = upTo(stringLimits.reason, Required);

/**
 * An order as created from the console or the integration API (SPEC §5): barcode, business and
 * patient required; the machine when staff know it (else the locker that loads the bag decides);
 * collection window (days) a whole number from 1 to 90, the business's default when left out; charges
 * typed as pounds ('9.80') and stored as pence. Left-out charges mean no charge.
 */
export const OrderInput = type({
  barcode: Barcode,
  businessId: upTo(stringLimits.id, Required),
  patientId: upTo(stringLimits.id, Required),
  'machineId?': Id.or('null'),
  'collectionWindow?': CollectionWindow,
  'prescriptionCharge?': Charge,
  'retailCharge?': Charge,
});
/** What a client sends. */
export type OrderInput = typeof OrderInput.inferIn;
/** What the service gets: charges in pence, window a number. */
export type ParsedOrderInput = typeof OrderInput.infer;
