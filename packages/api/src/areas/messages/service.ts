import { type Contract, messagesPageSize, type OutputOf, type ParsedInputOf } from '@medlocker/core';
import type { StaffActor } from '../../actor.ts';
import { auditReads } from '../../audit/audit.ts';
import type { AppDeps } from '../../deps.ts';
import { decodeIdCursor, pageOf } from '../../lists/paging.ts';
import { requireBusiness } from '../business-settings/index.ts';
import { listOutboxRows, type OutboxRow, toOutboxMessage } from './repository.ts';

type Messages = Contract['messages'];

/**
 * An alarm (`alarm.EM_0003`…) goes to the business's own keyholder mobiles and notification emails, in
 * the alarm template's wording: no secret in it, no patient behind it. Every other message is to a
 * patient or a person signing up, and may carry a secret (a sign-up code, a collection PIN): its body
 * is never sent back, and showing it (recipient, when, what kind) is a read of personal data, audited.
 * A kind of message added later is treated so until it is classed here (docs/decisions/messaging.md).
 */
const isStaffAlarm = (templateKey: string) => templateKey.startsWith('alarm.');

/** Records that the caller saw these patient-facing messages: message and patient ids only. */
function auditPatientMessages(deps: AppDeps, actor: StaffActor, rows: OutboxRow[]) {
  return auditReads(
    deps.db,
    deps,
    actor,
    rows
      .filter((r) => !isStaffAlarm(r.template_key))
      .map((r) => ({
        action: 'message.read',
        entityType: 'message',
        entityId: r.id,
        businessId: r.business_id,
        details: { via: 'listOutbox', templateKey: r.template_key, patientId: r.patient_id },
      })),
  );
}

export async function listOutbox(
  deps: AppDeps,
  actor: StaffActor,
  input: ParsedInputOf<Messages['listOutbox']>,
): Promise<OutputOf<Messages['listOutbox']>> {
  const before = decodeIdCursor(input.nextToken);
  await requireBusiness(deps.db, input.businessId);
  const rows = await listOutboxRows(deps.db, {
    businessId: input.businessId,
    ...(input.status ? { status: input.status } : {}),
    ...(before ? { before } : {}),
    limit: messagesPageSize,
  });
  const page = pageOf(rows, messagesPageSize, (r) => [r.id]);
  await auditPatientMessages(deps, actor, page.items);
  return {
    messages: page.items.map((r) => toOutboxMessage(r, isStaffAlarm(r.template_key))),
    nextToken: page.nextToken,
  };
}
