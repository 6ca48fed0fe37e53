import { AppError, WEBHOOK_TEST_EVENT, webhooksPageSize } from '@medlocker/core';
import { audit, entityAudit } from '../../audit/audit.ts';
import type { Service } from '../../context/method.ts';
import { eventBody, recordEvent } from '../../delivery/webhooks/events.ts';
import { queueDispatch } from '../../delivery/webhooks/repository.ts';
import { pageBeforeId } from '../../lists/paging.ts';
import { inEditableBusiness, requireBusiness, requireEditableBusiness } from '../business-settings/index.ts';
import {
  type Db,
  type EndpointClient,
  enableEndpointOf,
  endpointOf,
  findDelivery,
  findEndpointClient,
  findEventOf,
  listAttempts,
  listDeliveryRows,
  replayDeliveryRow,
  replayFailedRows,
} from './repository.ts';

/*
 * The webhook delivery console. The dispatcher (webhooks/dispatch.ts) sends; these methods
 * read what it did and ask it to send again: a replay sets a delivery pending from the start of the
 * retry schedule and queues the client's dispatch job, in one transaction. Every change is audited.
 */

/** The audit entry of a change to the business's integration client (its endpoint, its deliveries). */
const auditClient = entityAudit('integrationClient');

async function requireClient(db: Db, businessId: string, lock = false): Promise<EndpointClient> {
  const client = await findEndpointClient(db, businessId, lock);
  if (!client) throw new AppError('NOT_FOUND', `Business ${businessId} has no integration client`);
  return client;
}

/** A client whose endpoint can be sent to now: it has a webhook URL and is not disabled. */
function refuseUnsendable(client: EndpointClient): void {
  if (client.webhookUrl === null) {
    throw new AppError('CONFLICT', 'The integration has no webhook URL: add one in the integration settings first');
  }
  if (client.disabledAt !== null) {
    throw new AppError('CONFLICT', 'The webhook endpoint is disabled: enable it again first');
  }
}

export const getEndpoint: Service<'webhooks/getEndpoint'> = async (deps, _actor, input) => {
  await requireBusiness(deps.db, input.businessId);
  const client = await findEndpointClient(deps.db, input.businessId);
  return { endpoint: client ? await endpointOf(deps.db, client) : null };
};

export const listDeliveries: Service<'webhooks/listDeliveries'> = async (deps, _actor, input) => {
  // The token is read before the business is looked up: a forged token is a 400 whatever the business.
  const page = await pageBeforeId(input.nextToken, webhooksPageSize, async (at) => {
    await requireBusiness(deps.db, input.businessId);
    return listDeliveryRows(deps.db, {
      businessId: input.businessId,
      ...(input.eventType ? { eventType: input.eventType } : {}),
      ...(input.outcome ? { outcome: input.outcome } : {}),
      ...(input.since !== undefined ? { since: input.since } : {}),
      ...at,
    });
  });
  return { deliveries: page.items, nextToken: page.nextToken };
};

export const getDelivery: Service<'webhooks/getDelivery'> = async (deps, _actor, input) => {
  const found = await findDelivery(deps.db, input.id);
  const event = found && (await findEventOf(deps.db, found.eventId));
  if (!found || !event) throw new AppError('NOT_FOUND', `No webhook delivery with id ${input.id}`);
  return { delivery: found.delivery, event: eventBody(event), attempts: await listAttempts(deps.db, input.id) };
};

export const replayDelivery: Service<'webhooks/replayDelivery'> = async (deps, actor, input) => {
  const now = deps.now();
  return deps.db.transaction().execute(async (tx) => {
    const found = await findDelivery(tx, input.id);
    if (!found) throw new AppError('NOT_FOUND', `No webhook delivery with id ${input.id}`);
    await requireEditableBusiness(tx, found.businessId);
    refuseUnsendable(await requireClient(tx, found.businessId));
    const replayed = await replayDeliveryRow(tx, input.id, now);
    // Pending already: its next attempt is queued, a replay would only move it forward.
    if (!replayed) throw new AppError('CONFLICT', 'This delivery is waiting to be sent already');
    await queueDispatch(tx, { clientId: replayed.clientId, businessId: replayed.businessId, runAfter: now, now });
    await audit(tx, deps, actor, {
      action: 'webhookDelivery.replay',
      entityType: 'webhookDelivery',
      entityId: input.id,
      businessId: replayed.businessId,
      details: { eventType: replayed.delivery.eventType, was: found.delivery.status },
    });
    return { delivery: replayed.delivery };
  });
};

export const replayFailed: Service<'webhooks/replayFailed'> = async (deps, actor, input) => {
  return inEditableBusiness(deps, input.businessId, async (tx, now) => {
    const client = await requireClient(tx, input.businessId);
    refuseUnsendable(client);
    const replayed = await replayFailedRows(tx, { clientId: client.id, since: input.since, now });
    if (replayed > 0) {
      await queueDispatch(tx, { clientId: client.id, businessId: input.businessId, runAfter: now, now });
    }
    const audited = { id: client.id, businessId: input.businessId };
    await auditClient(tx, deps, actor, 'webhookDelivery.replayFailed', audited, { since: input.since, replayed });
    return { replayed };
  });
};

export const sendTestEvent: Service<'webhooks/sendTestEvent'> = async (deps, actor, input) => {
  return inEditableBusiness(deps, input.businessId, async (tx, now) => {
    refuseUnsendable(await requireClient(tx, input.businessId));
    const stored = await recordEvent(
      tx,
      {
        businessId: input.businessId,
        type: WEBHOOK_TEST_EVENT,
        orderingKey: null,
        data: { message: 'Test event from MedLocker', businessId: input.businessId },
      },
      now,
    );
    const test = stored?.delivered ? await findDelivery(tx, stored.eventId) : undefined;
    if (!test) throw new AppError('CONFLICT', 'The integration has no webhook URL: add one first');
    await audit(tx, deps, actor, {
      action: 'webhookDelivery.test',
      entityType: 'webhookDelivery',
      entityId: test.delivery.id,
      businessId: input.businessId,
    });
    return { delivery: test.delivery };
  });
};

export const enableEndpoint: Service<'webhooks/enableEndpoint'> = async (deps, actor, input) => {
  return inEditableBusiness(deps, input.businessId, async (tx, now) => {
    const client = await requireClient(tx, input.businessId, true);
    if (client.disabledAt === null) throw new AppError('CONFLICT', 'The webhook endpoint is not disabled');
    await enableEndpointOf(tx, client.id, now);
    // Its deliveries left pending while it was disabled go now.
    await queueDispatch(tx, { clientId: client.id, businessId: input.businessId, runAfter: now, now });
    const audited = { id: client.id, businessId: input.businessId };
    await auditClient(tx, deps, actor, 'integrationClient.webhook.enable', audited, { disabledAt: client.disabledAt });
    return { endpoint: await endpointOf(tx, (await findEndpointClient(tx, input.businessId)) ?? client) };
  });
};
