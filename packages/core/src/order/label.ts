import { type } from 'arktype';
import { Id } from '../validation/string-limits.ts';

/**
 * A bag label (docs/decisions/orders.md, Bag labels): what a pharmacy sticks on the bag before it goes
 * into a locker. The barcode twice (Code 128 for the locker's and the pharmacy's scanners, a QR code
 * carrying the same value for phones and 2D scanners), the order's reference, who it is for (initials and
 * surname only: enough to match the bag to the patient at the counter, nothing more for anyone who sees
 * the bag), the machine and the collect-by date.
 */

/** The label printers pharmacies use: a 62 mm continuous roll (cut at 100 mm) and 4×6 inch labels. */
export const labelSizes = ['roll62', 'sheet4x6'] as const;
export const LabelSize = type.enumerated(...labelSizes);
export type LabelSize = typeof LabelSize.infer;

/** Each size as people name it. */
export const labelSizeNames: Record<LabelSize, string> = {
  roll62: '62 mm continuous roll (62 × 100 mm)',
  sheet4x6: '4 × 6 inch (102 × 152 mm)',
};

/** Each size's page in millimetres, portrait. */
export const labelSizeMm: Record<LabelSize, { width: number; height: number }> = {
  roll62: { width: 62, height: 100 },
  sheet4x6: { width: 101.6, height: 152.4 },
};

/** The size a business gets until it chooses one. */
export const defaultLabelSize: LabelSize = 'roll62';

/** At most this many labels in one print (one sheet or roll). */
export const labelsMax = 100;

/** One label's content, as `orders.getLabels` answers it. */
export const BagLabel = type({
  orderId: Id,
  businessId: Id,
  reference: 'string',
  barcode: 'string',
  /** Given names' initials, upper case, no dots ("JA" for Jane Anne). */
  patientInitials: 'string',
  patientSurname: 'string',
  machineName: 'string | null',
  /**
   * When the patient must collect by (ms): the order's expiry once loaded; before that the print time
   * plus the collection window, as the bag is loaded the day its label is printed.
   */
  collectBy: 'number',
  /** Whether `collectBy` is the order's own expiry (loaded) rather than the expected one. */
  collectByKnown: 'boolean',
  size: LabelSize,
});
export type BagLabel = typeof BagLabel.infer;

/** "JA" from "Jane anne" (each given name's first letter, upper case); "" when there is none. */
export const initialsOf = (givenNames: string): string =>
  givenNames
    .split(/[\s-]+/)
    .filter((n) => n !== '')
    .map((n) => (n[0] ?? '').toLocaleUpperCase('en-GB'))
    .join('');

/**
 * Whether Code 128 carries this barcode as scanners read it back: printable ASCII only. Code 128 has no
 * way to say "UTF-8", so a barcode with other characters gets only its QR code (which carries UTF-8).
 */
export const code128Carries = (barcode: string): boolean => /^[\x20-\x7e]+$/.test(barcode);
