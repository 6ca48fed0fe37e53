import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { decodePDFRawStream, PDFDocument, PDFName, type PDFNumber, PDFRawStream } from 'pdf-lib';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';

/*
 * Reading printed barcodes back in tests, as a scanner would: zxing's reader (WebAssembly, loaded from
 * the package on disk, never from a CDN) over a PNG or raw pixels, and the images a PDF carries.
 */

let ready: Promise<unknown> | undefined;

function prepare() {
  if (!ready) {
    const wasm = readFileSync(createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm'));
    const wasmBinary = wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer;
    ready = Promise.resolve(prepareZXingModule({ overrides: { wasmBinary }, fireImmediately: true }));
  }
  return ready;
}

export type Pixels = { data: Uint8ClampedArray; width: number; height: number; colorSpace: 'srgb' };
export type Decoded = { format: string; text: string };

/** Every barcode zxing finds in a PNG (or JPEG) file's bytes, or in RGBA pixels. */
export async function decodeBarcodes(image: Uint8Array | Pixels): Promise<Decoded[]> {
  await prepare();
  const results = await readBarcodes(image as Uint8Array, { formats: ['Code128', 'QRCode'], tryHarder: true });
  return results.filter((r) => r.isValid).map((r) => ({ format: r.format, text: r.text }));
}

/** The images drawn in a PDF, as RGBA pixels (8 bits a channel, gray or RGB as stored), in file order. */
export async function pdfImages(pdf: Uint8Array): Promise<Pixels[]> {
  const doc = await PDFDocument.load(pdf);
  const images: Pixels[] = [];
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFRawStream)) continue;
    const dict = object.dict;
    if (dict.get(PDFName.of('Subtype')) !== PDFName.of('Image')) continue;
    const width = (dict.get(PDFName.of('Width')) as PDFNumber).asNumber();
    const height = (dict.get(PDFName.of('Height')) as PDFNumber).asNumber();
    const raw = decodePDFRawStream(object).decode();
    const channels = raw.length / (width * height);
    if (channels !== 1 && channels !== 3) continue; // an alpha mask
    const data = new Uint8ClampedArray(width * height * 4);
    for (let i = 0; i < width * height; i++) {
      for (let c = 0; c < 3; c++) data[i * 4 + c] = raw[i * channels + (channels === 3 ? c : 0)] ?? 0;
      data[i * 4 + 3] = 255;
    }
    images.push({ data, width, height, colorSpace: 'srgb' });
  }
  return images;
}

/** The PDF's pages' sizes in millimetres, rounded to a tenth. */
export async function pdfPageSizesMm(pdf: Uint8Array): Promise<{ width: number; height: number }[]> {
  const doc = await PDFDocument.load(pdf);
  const mm = (pt: number) => Math.round((pt * 254) / 72) / 10;
  return doc.getPages().map((p) => ({ width: mm(p.getWidth()), height: mm(p.getHeight()) }));
}
