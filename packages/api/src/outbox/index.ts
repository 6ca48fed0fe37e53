import type { Database } from '@medlocker/db';
import type { Kysely, Transaction } from 'kysely';
import { enqueueJob } from '../jobs/repository.ts';
import { insertMessageJobs } from './repository.ts';

/**
 * The outbox: work to do after a change commits (send a message; webhooks have their own tables: webhooks/events.ts), written as a job
 * row in the same transaction as the change that caused it, so the change and its job commit or fail
 * together. The job runner (issue "Messages delivered for real") claims due jobs by type and runs them;
 * nothing else writes these tables.
 *
 * Every job has a `type`, the business it belongs to (null for none, e.g. a support user's mail), a
 * `payload` whose shape the type fixes, `runAfter` (ms: not before then) and an optional `dedupeKey`
 * (a second job with the same key is not stored: `enqueue` answers `enqueued: false`).
 */
export type JobPayloads = {
  /** One message to one recipient (SPEC §8's SMS, email, WhatsApp), listed on the business's Messages tab. */
  'message.send': {
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

export type JobType = keyof JobPayloads;

export type Job = {
  [T in JobType]: {
    type: T;
    businessId: string | null;
    payload: JobPayloads[T];
    runAfter: number;
    dedupeKey?: string;
  };
}[JobType];

type Tx = Kysely<Database> | Transaction<Database>;

/**
 * Attempts a message gets before its job is dead: under a provider outage the runner's backoff (5 s
 * doubling to 1 h) spreads 15 over about four hours; a refused request among successes is retried
 * within seconds (jobs/runner.ts), and 15 in a row at 30% refusals has odds of 1 in 70 million.
 */
export const MESSAGE_MAX_ATTEMPTS = 15;

/** How each job type is stored: a missing type is a type error. */
const writers: { [T in JobType]: (tx: Tx, jobs: Extract<Job, { type: T }>[], now: number) => Promise<string[]> } = {
  // Each stored message also gets its runner job (keyed by the message id, so it is queued once), in the
  // same transaction: the message.send handler (messaging/send.ts) delivers it.
  'message.send': async (tx, jobs, now) => {
    const rows = jobs.map((j) => ({
      id: Bun.randomUUIDv7(),
      business_id: j.businessId,
      order_id: j.payload.orderId ?? null,
      patient_id: j.payload.patientId ?? null,
      channel: j.payload.channel,
      recipient: j.payload.recipient,
      template_key: j.payload.templateKey,
      subject: j.payload.subject ?? null,
      body: j.payload.body,
      next_attempt_at: j.runAfter,
      dedupe_key: j.dedupeKey ?? null,
      created: now,
      updated: now,
    }));
    const ids = await insertMessageJobs(tx, rows);
    for (const row of rows.filter((r) => ids.includes(r.id))) {
      await enqueueJob(
        tx,
        {
          type: 'message.send',
          payload: { messageId: row.id },
          businessId: row.business_id,
          runAfter: row.next_attempt_at,
          dedupeKey: row.id,
          maxAttempts: MESSAGE_MAX_ATTEMPTS,
        },
        now,
      );
    }
    return ids;
  },
};

/**
 * Queues jobs inside the caller's transaction (pass the transaction, not the database, so the job
 * commits with the change). Returns how many were stored (a job whose dedupe key is taken is not).
 * `now` is when they were queued (default: the earliest runAfter).
 */
export async function enqueue(tx: Tx, job: Job | Job[], now?: number): Promise<{ enqueued: number }> {
  const jobs = Array.isArray(job) ? job : [job];
  if (jobs.length === 0) return { enqueued: 0 };
  const at = now ?? Math.min(...jobs.map((j) => j.runAfter));
  let enqueued = 0;
  for (const type of Object.keys(writers) as JobType[]) {
    const ofType = jobs.filter((j) => j.type === type);
    if (ofType.length > 0) enqueued += (await writers[type](tx, ofType as never, at)).length;
  }
  return { enqueued };
}
