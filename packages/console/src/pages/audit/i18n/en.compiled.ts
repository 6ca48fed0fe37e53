// Written by scripts/compile-messages.ts from en.ts: edit that, then run it again.
import type { Messages } from '@lingui/core';

export const messages: Messages = {
  'audit.title': ['Audit trail'],
  'audit.lead.support': ['Who did what, to which record, when and from where: every entry.'],
  'audit.lead.admin': ['Who did what, to which record, when and from where, in the businesses you administer.'],
  'audit.column.when': ['When'],
  'audit.column.who': ['Who'],
  'audit.column.what': ['What'],
  'audit.column.about': ['About'],
  'audit.column.patient': ['Patient'],
  'audit.column.where': ['Where'],
  'audit.unknownActor': ['unknown'],
  'audit.filter.patient': ['Patient id'],
  'audit.filter.user': ['User id'],
  'audit.filter.business': ['Business id'],
  'audit.filter.order': ['Order id'],
  'audit.filter.action': ['Action'],
  'audit.filter.actionExample': ['e.g. patient.read'],
  'audit.filter.from': ['From'],
  'audit.filter.to': ['To'],
  'audit.exporting': ['Exporting…'],
  'audit.export': ['Export CSV'],
  'audit.entries': ['Audit entries'],
  'audit.empty': ['No audit entries found'],
};
