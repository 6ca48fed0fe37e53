// Written by scripts/compile-messages.ts from en.ts: edit that, then run it again.
import type { Messages } from '@lingui/core';

export const messages: Messages = {
  'labels.card.label': ['Bag label ', ['reference']],
  'labels.card.noMachine': ['No machine yet'],
  'labels.card.collectBy': ['Collect by ', ['date']],
  'labels.card.code128': ['Code 128 barcode ', ['barcode']],
  'labels.card.qr': ['QR code ', ['barcode']],
  'labels.sheet.summary': [
    [
      'count',
      'plural',
      {
        one: [['count'], ' label'],
        other: [['count'], ' labels'],
      },
    ],
    ', ',
    ['size'],
  ],
  'labels.page.backToOrder': ['Back to the order'],
  'labels.page.backToOrders': ['Back to orders'],
  'labels.page.title': ['Bag label'],
  'labels.page.titleMany': ['Bag labels (', ['count'], ')'],
  'labels.page.print': ['Print'],
};
