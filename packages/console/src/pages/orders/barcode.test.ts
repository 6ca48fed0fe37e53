import { describe, expect, it } from 'bun:test';
import { generateBarcode, generatedBarcodePattern } from './barcode.ts';

describe('generated barcodes', () => {
  it('are ML and ten upper-case Crockford characters', () => {
    for (let i = 0; i < 200; i++) expect(generateBarcode()).toMatch(generatedBarcodePattern);
  });

  it('maps each random byte onto the alphabet, wrapping at 32', () => {
    const bytes = [0, 1, 31, 32, 255, 10, 18, 21, 22, 27];
    expect(generateBarcode((b) => b.map((_, i) => bytes[i] ?? 0))).toBe('ML01Z0ZAJNPV');
  });

  it('differ from one call to the next', () => {
    expect(new Set(Array.from({ length: 100 }, () => generateBarcode())).size).toBe(100);
  });
});
