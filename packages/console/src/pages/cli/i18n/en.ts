/* The command-line sign-in page's words (ICU MessageFormat): see src/i18n/index.ts, `areaCatalog`. */
export const en = {
  'cli.title': 'Sign In the Command Line',
  'cli.lead': 'The medlocker command line asks to act as you.',
  'cli.invalidCode': 'This code is not valid any more. Run medlocker login again.',
  'cli.done': 'The command line is signed in. You can close this page.',
  'cli.checkCode': 'Check that your terminal shows this code:',
  'cli.noCode': '(none)',
  'cli.approveOnlyIf': 'Approve only if you started the sign-in yourself, just now.',
  'cli.approve': 'Approve',
} as const;
