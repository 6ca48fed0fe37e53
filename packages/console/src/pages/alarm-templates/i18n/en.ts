/* The alarm message templates pages' words (ICU MessageFormat): see src/i18n/index.ts, `areaCatalog`. */
export const en = {
  'alarmTemplates.title': 'Alarm Message Templates',
  'alarmTemplates.lead': 'What staff are told when a machine raises one of these alarms.',
  'alarmTemplates.defaultWording': ' (default wording)',
  'alarmTemplates.editTitle': 'Edit Alarm Message Templates',
  'alarmTemplates.saved': 'Alarm message templates saved.',
  'alarmTemplates.placeholders': 'Placeholders: {list}.',
} as const;
