// Written by scripts/compile-messages.ts from en.ts: edit that, then run it again.
import type { Messages } from '@lingui/core';

export const messages: Messages = {
  'cli.title': ['Sign In the Command Line'],
  'cli.lead': ['The medlocker command line asks to act as you.'],
  'cli.invalidCode': ['This code is not valid any more. Run medlocker login again.'],
  'cli.done': ['The command line is signed in. You can close this page.'],
  'cli.checkCode': ['Check that your terminal shows this code:'],
  'cli.noCode': ['(none)'],
  'cli.approveOnlyIf': ['Approve only if you started the sign-in yourself, just now.'],
  'cli.approve': ['Approve'],
};
