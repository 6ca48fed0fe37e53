import { Barcode } from '@medlocker/core';

/** Whether a text could be an order's barcode (core's rule: not blank, not too long). */
export const couldBeBarcode = (text: string): boolean => Barcode.allows(text);
