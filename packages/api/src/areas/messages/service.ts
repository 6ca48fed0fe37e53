import { messagesPageSize, type OutboxMessage } from '@medlocker/core';
import { auditListPage } from '../../audit/audit.ts';
import type { StaffActor } from '../../context/actor.ts';
import type { AppDeps } from '../../context/deps.ts';
import type { Service } from '../../context/method.ts';
import { pageBeforeId } from '../../lists/paging.ts';
import { requireBusiness } from '../business-settings/index.ts';
import { type ListedMessage, listOutboxMessages } from './repository.ts';

/**
 * An alarm (`alarm.EM_0003`…) goes to the business's own keyholder mobiles and notification emails, in
 * the alarm template's wording: no secret in it, no patient behind it. Every other message is to a
 * patient or a person signing up, and may carry a secret (a sign-up code, a collection PIN): its body
 * is never sent back, and showing it (recipient, when, what kind) is a read of personal data, audited.
 * A kind of message added later is treated so until it is classed here (docs/decisions/messaging.md).
 */
const isStaffAlarm = (templateKey: string) => templateKey.startsWith('alarm.');

/**
 * Records that the caller was shown a page of patient-facing messages: one `message.list` entry with the
 * messages' and patients' ids, never a recipient or wording.
 */
function auditPatientMessages(deps: AppDeps, actor: StaffActor, businessId: string, messages: ListedMessage[]) {
  const toPatients = messages.filter((m) => !isStaffAlarm(m.templateKey));
  return auditListPage(deps.db, deps, actor, {
    action: 'message.list',
    entityType: 'message',
    businessId,
    details: {
      via: 'listOutbox',
      patientIds: [...new Set(toPatients.flatMap((m) => (m.patientId === null ? [] : [m.patientId])))],
    },
    ids: toPatients.map((m) => m.id),
  });
}

/** A message as the list shows it: core's OutboxMessage, the body left out (null) unless a staff alarm's. */
const shown = ({ businessId: _business, patientId: _patient, ...message }: ListedMessage): OutboxMessage =>
  isStaffAlarm(message.templateKey) ? message : { ...message, body: null };

export const listOutbox: Service<'messages/listOutbox'> = async (deps, actor, input) => {
  // The token is read before the business is looked up: a forged token is a 400 whatever the business.
  const page = await pageBeforeId(input.nextToken, messagesPageSize, async (at) => {
    await requireBusiness(deps.db, input.businessId);
    return listOutboxMessages(deps.db, {
      businessId: input.businessId,
      ...(input.status ? { status: input.status } : {}),
      ...at,
    });
  });
  await auditPatientMessages(deps, actor, input.businessId, page.items);
  return {
    messages: page.items.map(shown),
    nextToken: page.nextToken,
  };
};
