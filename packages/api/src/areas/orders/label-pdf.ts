import { type BagLabel, code128Carries, formatDate, labelSizeMm } from '@medlocker/core';
import bwipjs from 'bwip-js/node';
import { PDFDocument, type PDFFont, type PDFImage, type PDFPage, rgb, StandardFonts } from 'pdf-lib';

/*
 * Bag labels as one PDF, a page per label at the business's label size, for label printers driven
 * outside the browser (CUPS, a print server, a pharmacy system's script). The barcodes are bwip-js's
 * PNGs at several pixels a module, black on white with their quiet zones, so a printer's scaling cannot
 * merge two bars; the console draws the same labels as SVG (pages/orders/labels).
 */

const PT_PER_MM = 72 / 25.4;
const black = rgb(0, 0, 0);

/** A barcode as a PNG: Code 128 with its text under it, or a QR code, black on white. */
export async function barcodePng(kind: 'code128' | 'qrcode', value: string): Promise<Uint8Array> {
  const common = { text: value, backgroundcolor: 'FFFFFF', barcolor: '000000' } as const;
  const png =
    kind === 'code128'
      ? await bwipjs.toBuffer({
          ...common,
          bcid: 'code128',
          scale: 4,
          height: 12,
          includetext: true,
          textxalign: 'center',
          paddingwidth: 10,
          paddingheight: 2,
        })
      : await bwipjs.toBuffer({ ...common, bcid: 'qrcode', scale: 8, padding: 4 });
  return new Uint8Array(png);
}

/** One PDF, a page per label, in the order given. */
export async function labelsPdf(labels: readonly BagLabel[]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(labels.length === 1 ? `Bag label ${labels[0]?.reference}` : `${labels.length} bag labels`);
  pdf.setCreator('MedLocker');
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  for (const label of labels) {
    const code128 = code128Carries(label.barcode)
      ? await pdf.embedPng(await barcodePng('code128', label.barcode))
      : null;
    const qr = await pdf.embedPng(await barcodePng('qrcode', label.barcode));
    drawLabel(pdf.addPage(pageSize(label)), label, { regular, bold, code128, qr });
  }
  return pdf.save();
}

const pageSize = (label: BagLabel): [number, number] => {
  const mm = labelSizeMm[label.size];
  return [mm.width * PT_PER_MM, mm.height * PT_PER_MM];
};

type Parts = { regular: PDFFont; bold: PDFFont; code128: PDFImage | null; qr: PDFImage };

/**
 * Top to bottom: the reference, the patient (initials and surname), the machine, the collect-by date,
 * then the Code 128 barcode across the label (or its text, when Code 128 cannot carry it) and the QR
 * code under it.
 */
function drawLabel(page: PDFPage, label: BagLabel, parts: Parts) {
  const { width, height } = page.getSize();
  const margin = 4 * PT_PER_MM;
  const inner = width - 2 * margin;
  const unit = width / (62 * PT_PER_MM); // 1 on the 62 mm roll; text grows with wider labels
  let y = height - margin;
  const line = (text: string, font: PDFFont, size: number) => {
    const fitted = fitText(font, printable(font, text), size * unit, inner);
    y -= fitted.size;
    page.drawText(fitted.text, { x: margin, y, size: fitted.size, font, color: black });
    y -= fitted.size * 0.35;
  };
  line(label.reference, parts.bold, 16);
  line(`${label.patientInitials} ${label.patientSurname}`.trim(), parts.bold, 14);
  line(label.machineName ?? 'No machine yet', parts.regular, 10);
  line(`Collect by ${formatDate(label.collectBy)}`, parts.regular, 10);
  y -= 2 * PT_PER_MM;
  if (parts.code128) {
    const barcodeHeight = (inner * parts.code128.height) / parts.code128.width;
    y -= barcodeHeight;
    page.drawImage(parts.code128, { x: margin, y, width: inner, height: barcodeHeight });
  } else {
    line(label.barcode, parts.regular, 10); // no Code 128 for it: the text, then the QR code
  }
  const qrSide = Math.min(inner * 0.6, y - margin);
  if (qrSide > 10 * PT_PER_MM) {
    page.drawImage(parts.qr, { x: (width - qrSide) / 2, y: y - 2 * PT_PER_MM - qrSide, width: qrSide, height: qrSide });
  }
}

/** The text at `size`, or smaller so it fits `maxWidth`. */
function fitText(font: PDFFont, text: string, size: number, maxWidth: number) {
  const width = font.widthOfTextAtSize(text, size);
  return { text, size: width > maxWidth ? (size * maxWidth) / width : size };
}

/**
 * The text in what the PDF's standard fonts can write (WinAnsi): a letter the font lacks loses its
 * accent ('ő' → 'o'), and one that has no plain form ('Ł') becomes '?'.
 */
function printable(font: PDFFont, text: string): string {
  const canWrite = (c: string) => {
    try {
      font.encodeText(c);
      return true;
    } catch {
      return false;
    }
  };
  return [...text]
    .map((c) => {
      if (canWrite(c)) return c;
      const bare = c.normalize('NFD').replace(/\p{M}/gu, '');
      return bare !== '' && canWrite(bare) ? bare : '?';
    })
    .join('');
}
