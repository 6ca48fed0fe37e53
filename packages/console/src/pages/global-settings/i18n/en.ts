/* The global settings pages' words (ICU MessageFormat): see src/i18n/index.ts, `areaCatalog`. */
export const en = {
  'globalSettings.title': 'Global Settings',
  'globalSettings.editTitle': 'Edit Global Settings',
  'globalSettings.lead': 'Settings that apply to every business.',
  'globalSettings.charge': 'NHS prescription charge',
  'globalSettings.notSet': 'Not set',
  'globalSettings.inactive': 'Disable accounts not used for',
  'globalSettings.inactiveDays': '{days} days',
  'globalSettings.secondFactor': 'Support staff need a second factor',
  'globalSettings.yes': 'Yes',
  'globalSettings.no': 'No',
  'globalSettings.saved': 'Global settings saved.',
  'globalSettings.chargeLabel': 'NHS prescription charge (£)',
  'globalSettings.chargeHint': 'In pounds, with at most 2 decimals, e.g. 9.80.',
  'globalSettings.inactiveLabel': 'Disable accounts not used for (days)',
  'globalSettings.inactiveHint':
    'A staff account nobody has signed in to for this many days is disabled until support or an Admin enables it (1 to {max}).',
  'globalSettings.secondFactorSwitch': 'Support staff must sign in with a second factor',
} as const;
