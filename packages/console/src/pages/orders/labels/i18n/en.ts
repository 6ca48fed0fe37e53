/* The bag labels' words (ICU MessageFormat): see src/i18n/index.ts, `areaCatalog`. */
export const en = {
  'labels.card.label': 'Bag label {reference}',
  'labels.card.noMachine': 'No machine yet',
  'labels.card.collectBy': 'Collect by {date}',
  'labels.card.code128': 'Code 128 barcode {barcode}',
  'labels.card.qr': 'QR code {barcode}',
  'labels.sheet.summary': '{count, plural, one {{count} label} other {{count} labels}}, {size}',
  'labels.page.backToOrder': 'Back to the order',
  'labels.page.backToOrders': 'Back to orders',
  'labels.page.title': 'Bag label',
  'labels.page.titleMany': 'Bag labels ({count})',
  'labels.page.print': 'Print',
} as const;
