// Written by scripts/compile-messages.ts from en.ts: edit that, then run it again.
import type { Messages } from '@lingui/core';

export const messages: Messages = {
  'invitations.title': ['Invitations'],
  'invitations.lead': ['Businesses and groups that have invited you. Accept to get access.'],
  'invitations.empty': ['You have no pending invitations.'],
};
