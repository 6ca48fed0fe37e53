// Written by scripts/compile-messages.ts from en.ts: edit that, then run it again.
import type { Messages } from '@lingui/core';

export const messages: Messages = {
  'orderImport.import.title': ['Import orders'],
  'orderImport.import.file': ['File: ', ['name']],
  'orderImport.import.reading': ['Reading the file…'],
  'orderImport.import.dataLabel': ['Order data'],
  'orderImport.import.sampleNote': ['A sample order from the file is shown beside each column.'],
  'orderImport.import.preview': ['Preview'],
  'orderImport.import.fileLabel': ['Order CSV file'],
  'orderImport.import.fileHint': [
    "Choose a CSV file of orders: one order per line, the same columns on every line. Each order needs a barcode and the patient's ID; a machine, collection window and charges are optional.",
  ],
  'orderImport.import.fileHintGenerated': [
    "Choose a CSV file of orders: one order per line, the same columns on every line. Each order needs a barcode (blank: one is generated) and the patient's ID; a machine, collection window and charges are optional.",
  ],
  'orderImport.import.example': ['Download an example file'],
  'orderImport.import.creating': ['Creating orders…'],
  'orderImport.import.back': ['Back'],
  'orderImport.import.cancel': ['Cancel'],
  'orderImport.import.column': ['Column ', ['number']],
  'orderImport.import.errorsColumn': ['Errors'],
  'orderImport.import.row': ['Row'],
  'orderImport.import.order': ['Order'],
  'orderImport.import.barcode': ['Barcode'],
  'orderImport.import.cancelled': ['Import cancelled'],
  'orderImport.import.complete': ['Import complete'],
  'orderImport.import.counts': [
    [
      'created',
      'plural',
      {
        one: [['created'], ' order'],
        other: [['created'], ' orders'],
      },
    ],
    ' created; ',
    [
      'failed',
      'plural',
      {
        one: [['failed'], ' row'],
        other: [['failed'], ' rows'],
      },
    ],
    ' not created.',
  ],
  'orderImport.import.createdOrders': ['Created orders'],
  'orderImport.import.noneCreated': ['No orders were created.'],
  'orderImport.import.downloadFailed': ['Download the failed rows'],
  'orderImport.import.printCount': [
    'Print ',
    [
      'count',
      'plural',
      {
        one: [['count'], ' label'],
        other: [['count'], ' labels'],
      },
    ],
  ],
  'orderImport.import.printRange': ['Print labels ', ['from'], '–', ['to']],
  'orderImport.import.done': ['Complete'],
  'orderImport.import.labelsSection': ['Bag labels of the created orders'],
  'orderImport.import.labelsTitle': ['Bag labels'],
  'orderImport.preview.row': ['Row'],
  'orderImport.preview.errors': ['Errors'],
  'orderImport.preview.noErrors': ['None'],
  'orderImport.preview.title': ['Check the orders before they are created'],
  'orderImport.preview.counts': [
    [
      'rows',
      'plural',
      {
        one: [['rows'], ' row'],
        other: [['rows'], ' rows'],
      },
    ],
    ' in the file: ',
    [
      'good',
      'plural',
      {
        one: [['good'], ' order'],
        other: [['good'], ' orders'],
      },
    ],
    ' ready to create, ',
    [
      'bad',
      'plural',
      {
        one: [['bad'], ' row'],
        other: [['bad'], ' rows'],
      },
    ],
    ' with errors (not created).',
  ],
  'orderImport.preview.firstRows': [' The first ', ['count'], ' rows are shown.'],
  'orderImport.preview.label': ['Preview of the orders'],
  'orderImport.preview.empty': ['No rows.'],
  'orderImport.preview.back': ['Back'],
  'orderImport.preview.createNone': ['Create orders'],
  'orderImport.preview.create': [
    'Create ',
    [
      'count',
      'plural',
      {
        one: [['count'], ' order'],
        other: [['count'], ' orders'],
      },
    ],
  ],
};
