/*
 * The console's words in English (ICU MessageFormat). The console stays in English, but its words go
 * through the same language layer as the patient page's: another language is a file like this one
 * (`cy.ts`, typed `Record<keyof typeof en, string>`), listed in scripts/compile-messages.ts and in
 * index.ts's loader (docs/ARCHITECTURE.md, Languages).
 */
export const en = {
  'menu.dashboard': 'Dashboard',
  'menu.businesses': 'Businesses',
  'menu.groups': 'Groups',
  'menu.supportUsers': 'Support Users',
  'menu.alarmMessageTemplates': 'Alarm Message Templates',
  'menu.globalSettings': 'Global Settings',
  'menu.identityProviders': 'Identity Providers',
  'menu.jobs': 'Jobs',
  'menu.audit': 'Audit trail',
  'menu.open': 'Menu',
  'menu.close': 'Close menu',
  'user.account': 'Your account',
  'user.loggedInAs': 'Logged in as',
  'user.logOut': 'Log out',
  'session.timedOut': 'Your session has timed out. Please log in again',
  'sms.title': 'SMS templates',
  'sms.language': 'Language of the templates',
  'sms.lead':
    'Placeholders such as {pin} are filled in for each patient. The previews use made-up example values (Example Pharmacy, PIN {samplePin}); a real message may be longer or shorter.',
  'sms.nothingChanged': 'Nothing has changed.',
  'sms.saved': 'SMS templates saved.',
  'sms.someNeedChanging': 'Some templates need changing: see the messages below.',
  'sms.preview': '{name} preview',
  'sms.bilingualPreview': 'As a bilingual message (Welsh first)',
  'sms.template.machineBackInOrder': 'Machine back in order',
  'sms.template.machineOutOfOrder': 'Machine out of order',
  'sms.template.orderReady': 'Order ready',
  'sms.template.orderUpdated': 'Order updated',
  'sms.template.orderRemoved': 'Order removed',
  'sms.template.orderExpiring': 'Order expiring',
  'sms.template.paymentRequired': 'Payment required',
  'sms.template.orderCollected': 'Order collected',
  'language.en': 'English',
  'language.cy': 'Welsh (Cymraeg)',
  'language.bilingual': 'Both, Welsh first (bilingual)',
  'settings.languageLegend': 'Language',
  'settings.patientLanguage': "Patients' language",
  'settings.patientLanguageHint':
    'The patient page and messages use this language until a patient chooses another on their page.',
} as const;
