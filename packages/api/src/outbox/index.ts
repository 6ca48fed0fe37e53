import type { Database } from '@medlocker/db';
import type { Kysely, Transaction } from 'kysely';
import { enqueueJob } from '../jobs/repository.ts';
import { insertMessageJobs } from './repository.ts';

/**
 * The message outbox: a message to send after a change commits (SPEC §8's SMS, email, WhatsApp), stored
 * with its `message.send` job in the same transaction as the change that caused it, so the change and
 * its message commit or fail together. The job runner delivers it (delivery/messages/send.ts); the
 * business's Messages tab lists it. Webhooks have their own tables (delivery/webhooks/events.ts).
 */
export type OutboxMessage = {
  /** The business it belongs to (null for none, e.g. a support user's mail). */
  businessId: string | null;
  /** ms: not before then. */
  runAfter: number;
  /** A second message with the same key is not stored: `queueMessages` does not count it. */
  dedupeKey?: string;
  message: {
    channel: 'sms' | 'email' | 'whatsapp';
    recipient: string;
    /** What the message is (an alarm code, a sign-up code…), for the Messages tab and the runner. */
    templateKey: string;
    subject?: string | null;
    body: string;
    orderId?: string | null;
    patientId?: string | null;
  };
};

type Tx = Kysely<Database> | Transaction<Database>;

/**
 * Attempts a message gets before its job is dead: under a provider outage the runner's backoff (5 s
 * doubling to 1 h) spreads 15 over about four hours; a refused request among successes is retried
 * within seconds (jobs/runner.ts), and 15 in a row at 30% refusals has odds of 1 in 70 million.
 */
const MESSAGE_MAX_ATTEMPTS = 15;

/**
 * Stores messages inside the caller's transaction (pass the transaction, not the database, so they
 * commit with the change), each with its runner job (keyed by the message id, so it is queued once).
 * Answers how many were stored (a message whose dedupe key is taken is not). `now` is when they were
 * queued (default: the earliest runAfter).
 */
export async function queueMessages(
  tx: Tx,
  messages: OutboxMessage | OutboxMessage[],
  now?: number,
): Promise<{ enqueued: number }> {
  const list = Array.isArray(messages) ? messages : [messages];
  if (list.length === 0) return { enqueued: 0 };
  const at = now ?? Math.min(...list.map((m) => m.runAfter));
  const queued = list.map((m) => ({ id: Bun.randomUUIDv7(), ...m }));
  const ids = await insertMessageJobs(
    tx,
    queued.map(({ id, businessId, runAfter, dedupeKey, message }) => ({
      id,
      business_id: businessId,
      order_id: message.orderId ?? null,
      patient_id: message.patientId ?? null,
      channel: message.channel,
      recipient: message.recipient,
      template_key: message.templateKey,
      subject: message.subject ?? null,
      body: message.body,
      next_attempt_at: runAfter,
      dedupe_key: dedupeKey ?? null,
      created: at,
      updated: at,
    })),
  );
  for (const m of queued.filter((q) => ids.includes(q.id))) await queueSend(tx, m, m.runAfter, at);
  return { enqueued: ids.length };
}

/**
 * The runner job that sends a stored message, from `runAfter`: keyed by the message id, so a message
 * has at most one such job not yet done (a resend queues another once the last one finished).
 */
export function queueSend(tx: Tx, message: { id: string; businessId: string | null }, runAfter: number, now: number) {
  return enqueueJob(
    tx,
    {
      type: 'message.send',
      payload: { messageId: message.id },
      businessId: message.businessId,
      runAfter,
      dedupeKey: message.id,
      maxAttempts: MESSAGE_MAX_ATTEMPTS,
    },
    now,
  );
}
