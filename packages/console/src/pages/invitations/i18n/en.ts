/* The invitations page's words (ICU MessageFormat): see src/i18n/index.ts, `areaCatalog`. */
export const en = {
  'invitations.title': 'Invitations',
  'invitations.lead': 'Businesses and groups that have invited you. Accept to get access.',
  'invitations.empty': 'You have no pending invitations.',
} as const;
