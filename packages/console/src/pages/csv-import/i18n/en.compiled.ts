// Written by scripts/compile-messages.ts from en.ts: edit that, then run it again.
import type { Messages } from '@lingui/core';

export const messages: Messages = {
  'csvImport.chooseFile': ['Choose file'],
  'csvImport.firstLine.title': ['What is on the first line of the file?'],
  'csvImport.firstLine.fieldNames': ['Field names'],
  'csvImport.back': ['Back'],
  'csvImport.mapping.ignore': ['Ignore'],
  'csvImport.mapping.title': ['Choose the field each column holds'],
  'csvImport.mapping.anotherSample': ['Show another sample'],
  'csvImport.mapping.column': ['Column ', ['number']],
  'csvImport.mapping.sample': ['Sample: '],
  'csvImport.mapping.emptySample': ['—'],
  'csvImport.mapping.problems': ['The mapping cannot be imported yet'],
  'csvImport.mapping.import': ['Import'],
  'csvImport.errors.row': ['Row'],
  'csvImport.errors.error': ['Error'],
  'csvImport.errors.title': ['Errors'],
  'csvImport.errors.label': ['Import errors'],
  'csvImport.errors.empty': ['No errors.'],
};
