// Written by scripts/compile-messages.ts from en.ts: edit that, then run it again.
import type { Messages } from '@lingui/core';

export const messages: Messages = {
  'alarmTemplates.title': ['Alarm Message Templates'],
  'alarmTemplates.lead': ['What staff are told when a machine raises one of these alarms.'],
  'alarmTemplates.defaultWording': [' (default wording)'],
  'alarmTemplates.editTitle': ['Edit Alarm Message Templates'],
  'alarmTemplates.saved': ['Alarm message templates saved.'],
  'alarmTemplates.placeholders': ['Placeholders: ', ['list'], '.'],
};
