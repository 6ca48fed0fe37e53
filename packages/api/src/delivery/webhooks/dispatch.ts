import { WEBHOOK_TEST_EVENT } from '@medlocker/core';
import type { AppDeps } from '../../context/deps.ts';
import type { JobPayloads } from '../../jobs/catalogue.ts';
import type { JobHandler } from '../../jobs/runner.ts';
import { queueMessages } from '../../outbox/index.ts';
import type { SsrfPolicy } from '../../ssrf/ssrf.ts';
import { insertBusinessNotification } from '../../staff-notifications/repository.ts';
import { eventBody } from './events.ts';
import {
  type AttemptRecord,
  clientsWithDueHeads,
  type DispatchClient,
  type DueDelivery,
  disableEndpoint,
  dueHeads,
  findDispatchClient,
  lockBusinessKey,
  nextDueHead,
  queueDispatch,
  recordAttempts,
  updateEndpointHealth,
} from './repository.ts';
import { openSealedWebhookSecret } from './secrets.ts';
import { type AttemptOutcome, sendWebhook, signerOf } from './send.ts';

/*
 * The webhook dispatch job (docs/decisions/webhooks.md "Webhook dispatch"): one per client, queued by
 * recordEvent (webhooks/events.ts), the delivery console and the sweep. It drains the client's due
 * deliveries batch by batch: the heads of their ordering keys (per-order order kept), sent at once by a
 * bounded pool over kept-alive connections, each batch's attempts and outcomes recorded in one
 * transaction. Before it ends, in its last transaction, it marks itself done and queues itself for the
 * next due head (a retry's time), so a client's dispatch is never lost and never runs twice at once.
 */

/** After failure n (1-based) the next attempt comes this long after it (REFERENCE.md); after the last: dead. */
export const RETRY_DELAYS_MS = [
  0,
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  14 * 3_600_000,
  20 * 3_600_000,
  24 * 3_600_000,
] as const;

/** An endpoint failing this long without a success is disabled and its business told. */
export const DISABLE_AFTER_MS = 5 * 86_400_000;

export const SWEEP_JOB = 'webhooks.sweep' as const;

export type DispatchOptions = {
  /** Deliveries taken per batch (default 256). */
  batch?: number;
  /** Requests in flight at once per client (default 64). */
  concurrency?: number;
  /** A run starts no new batch after this long (default 20 s): other clients get their turn. */
  budgetMs?: number;
  /** Per request (default 10 s). */
  timeoutMs?: number;
};

/**
 * What a delivery becomes after an attempt: done, the next step of the schedule, or dead. A test event
 * (`once`) is tried once: it is a check of the endpoint that staff watch, and a retry in the same second
 * (the schedule's first step) read as a second test; its one answer is what they need.
 */
export function nextState(
  step: number,
  ok: boolean,
  now: number,
  once = false,
): Pick<AttemptRecord, 'outcome' | 'scheduleStep' | 'nextAttemptAt'> {
  if (ok) return { outcome: 'succeeded', scheduleStep: step, nextAttemptAt: null };
  const delay = once ? undefined : RETRY_DELAYS_MS[step];
  if (delay === undefined) return { outcome: 'failed', scheduleStep: step, nextAttemptAt: null };
  return { outcome: 'pending', scheduleStep: step + 1, nextAttemptAt: now + delay };
}

const triggerOf = (d: DueDelivery): AttemptRecord['trigger'] =>
  d.replayRequested ? 'replay' : d.eventType === WEBHOOK_TEST_EVENT ? 'test' : 'schedule';

/** Runs `work` over `items` with at most `limit` at once, answers in the items' order. */
async function pooled<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** The secrets that sign now: the current one, and the previous one until its rotation's 24 h are over. */
function signersOf(deps: AppDeps, client: DispatchClient, now: number) {
  const sealed = [client.webhookSecretSealed];
  const until = client.previousSecretUntil;
  if (client.previousSecretSealed && until !== null && until > now) sealed.push(client.previousSecretSealed);
  return sealed.flatMap((s) => (s ? [signerOf(openSealedWebhookSecret(deps, client.id, s))] : []));
}

export const policyOf = (deps: Pick<AppDeps, 'config'>): SsrfPolicy => ({
  production: deps.config.production,
  allowPrivateAddresses: deps.config.webhookAllowPrivateAddresses,
});

/** Tells the business its endpoint was disabled: a notification for its staff and an email to the client's contact. */
async function tellDisabled(tx: Parameters<typeof queueMessages>[0], client: DispatchClient, now: number) {
  const title = `Webhooks stopped for ${client.name}`;
  const body =
    `Every webhook delivery to ${client.webhookUrl} has failed for 5 days, so deliveries to it are paused. ` +
    'Nothing is lost: they wait, and go out in order once the endpoint is enabled again in the delivery console.';
  await insertBusinessNotification(tx, {
    businessId: client.businessId,
    level: 'error',
    title,
    body,
    details: { integrationClientId: client.id, webhookUrl: client.webhookUrl },
    now,
  });
  if (!client.contactEmail) return;
  await queueMessages(
    tx,
    [
      {
        businessId: client.businessId,
        message: {
          channel: 'email',
          recipient: client.contactEmail,
          templateKey: 'webhook.disabled',
          subject: title,
          body,
        },
        runAfter: now,
      },
    ],
    now,
  );
}

/** One batch: sends the due heads, records every attempt and the endpoint's health. Answers how many went. */
async function sendBatch(deps: AppDeps, client: DispatchClient, options: Required<DispatchOptions>): Promise<number> {
  const heads = await dueHeads(deps.db, client.id, deps.now(), options.batch);
  if (heads.length === 0 || client.webhookUrl === null) return 0;
  const signers = signersOf(deps, client, deps.now());
  const url = client.webhookUrl;
  const policy = policyOf(deps);
  const outcomes = await pooled(heads, options.concurrency, (d) =>
    sendWebhook(
      { url, id: d.id, body: JSON.stringify(eventBody({ ...d, type: d.eventType })), signers },
      { policy, timeoutMs: options.timeoutMs },
    ),
  );
  const now = deps.now();
  const attempts = heads.map((d, i) => {
    const o = outcomes[i] as AttemptOutcome;
    return {
      id: Bun.randomUUIDv7(),
      deliveryId: d.id,
      trigger: triggerOf(d),
      status: o.status,
      latencyMs: o.latencyMs,
      error: o.error,
      excerpt: o.excerpt,
      ...nextState(d.scheduleStep, o.ok, now, d.eventType === WEBHOOK_TEST_EVENT),
    };
  });
  await deps.db.transaction().execute(async (tx) => {
    // The business's row (key share), the client's, then its deliveries': the order of every other
    // transaction that takes them (staff lock the business, then the client; deleting the client cascades
    // from its row to its deliveries), so none waits on another in a circle.
    await lockBusinessKey(tx, client.businessId);
    const succeeded = outcomes.some((o) => o.ok);
    const failingSince = await updateEndpointHealth(tx, client.id, {
      succeeded,
      failedAt: succeeded ? null : now,
    });
    // Deleted meanwhile: its deliveries went with it, nothing to record.
    if (failingSince === undefined) return;
    await recordAttempts(tx, client.businessId, attempts, now);
    if (
      failingSince !== null &&
      now - failingSince >= DISABLE_AFTER_MS &&
      (await disableEndpoint(tx, client.id, now))
    ) {
      deps.logger.warn('webhook endpoint disabled after 5 days of failures', { clientId: client.id });
      await tellDisabled(tx, client, now);
    }
  });
  return heads.length;
}

/** How long a dispatch job's process may go unheard of before another takes the job. */
export const DISPATCH_LEASE_MS = 60_000;

/** The handler of DISPATCH_JOB (payload `{clientId}`). */
export function webhookDispatchHandler(
  deps: AppDeps,
  options: DispatchOptions = {},
): JobHandler<JobPayloads['webhooks.dispatch']> {
  const o: Required<DispatchOptions> = {
    batch: options.batch ?? 256,
    concurrency: options.concurrency ?? 64,
    budgetMs: options.budgetMs ?? 20_000,
    timeoutMs: options.timeoutMs ?? 10_000,
  };
  return {
    // A dead process's client waits a minute, not the default 5, before another process takes it over
    // (the runner renews the lease every 20 s while this process lives).
    leaseMs: DISPATCH_LEASE_MS,
    run: async ({ job, signal, complete }) => {
      const { clientId } = job.payload;
      const started = performance.now();
      while (!signal.aborted && performance.now() - started < o.budgetMs) {
        // Read again each batch: staff may disable the endpoint, change its URL or rotate its secret meanwhile.
        const client = await findDispatchClient(deps.db, clientId);
        if (!client || client.disabledAt !== null) break;
        if ((await sendBatch(deps, client, o)) === 0) break;
      }
      // Stopping: the runner returns the job to waiting; what was sent is recorded.
      if (signal.aborted) return;
      // complete() FIRST, then the look for due work (docs/decisions/webhooks.md "Webhook dispatch"): a delivery
      // committed after that look found the job done and queued a new one itself.
      await deps.db.transaction().execute(async (tx) => {
        await complete(tx);
        const next = await nextDueHead(tx, clientId);
        if (next !== null) {
          await queueDispatch(tx, { clientId, businessId: job.businessId ?? '', runAfter: next, now: deps.now() });
        }
      });
    },
  };
}

/** The safety net, every minute: a dispatch job for every client with a due delivery (one lost, or never queued). */
export async function sweepDueDeliveries(deps: AppDeps): Promise<number> {
  const now = deps.now();
  const clients = await clientsWithDueHeads(deps.db, now);
  for (const c of clients) {
    await queueDispatch(deps.db, { clientId: c.clientId, businessId: c.businessId, runAfter: now, now });
  }
  return clients.length;
}
