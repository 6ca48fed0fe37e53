/**
 * A barcode the console offers when the business's autoBarcodes.autoGenerate is on (docs/decisions/orders.md,
 * "Generated barcodes"): 'ML' and ten characters of Crockford base 32 from the browser's CSPRNG. Upper
 * case letters and digits only, without I, L, O and U, so it survives being read aloud or retyped and
 * prints as Code 128 or Code 39. 50 bits: a clash with a live order of the business is vanishingly rare,
 * and the server refuses one anyway (409 beside Barcode).
 */
const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export const generatedBarcodePattern = /^ML[0-9A-HJKMNP-TV-Z]{10}$/;

export function generateBarcode(random: (bytes: Uint8Array) => Uint8Array = (b) => crypto.getRandomValues(b)): string {
  const bytes = random(new Uint8Array(10));
  // 256 is a multiple of 32, so taking each byte mod 32 keeps every character equally likely.
  return `ML${Array.from(bytes, (b) => alphabet[b % 32]).join('')}`;
}
