/**
 * Every kind of background work the job runner does, with the payload each carries. `enqueueJob` takes
 * only these, and each handler (job-handlers.ts) reads its own payload's type: a job type added here
 * without a handler, or a handler for a type not here, does not compile.
 */
export type JobPayloads = {
  /** One outbox message to its gateway (delivery/messages/send.ts), queued by outbox/ with the message. */
  'message.send': { messageId: string };
  /** An unconfirmed message whose grace period is over: confirmed by its report, or sent again. */
  'message.reconcile': { messageId: string };
  /** One integration client's due webhooks (delivery/webhooks/dispatch.ts). */
  'webhooks.dispatch': { clientId: string };
  /** The safety net that queues any client's dispatch that was forgotten. */
  'webhooks.sweep': NoPayload;
  /** Loaded orders whose window passed: their expiry event and the patient's message. */
  'orders.recordExpired': NoPayload;
  /** Loaded orders expiring within a day: the patient's reminder, once per expiry. */
  'orders.expiryReminders': NoPayload;
  /** Idempotency keys older than 24 hours and expired bearer tokens of the integration API. */
  'integration.prune': NoPayload;
  /** The monthly figures of the months touched since the last run. */
  'stats.monthly': NoPayload;
  /** Queues each staff member's digest of unread notifications. */
  'notifications.dailyDigest': NoPayload;
  /** One staff member's digest of unread notifications. */
  'notifications.digest': { userId: string };
  /** Accounts not used for the global setting's days: disabled, their sessions ended. */
  'accounts.disableInactive': NoPayload;
  /** What is past its retention period: removed or anonymised in batches (areas/data-protection). */
  'retention.apply': NoPayload;
  /** Rate-limit buckets nobody has touched for a day. */
  'housekeeping.idleBuckets': NoPayload;
  /** The 1st of each month: one report job per active business with notification emails. */
  'reports.monthlyEmails': NoPayload;
  /** Every sealed secret and PIN lookup under SECRETS_KEY's first key (secrets/reseal.ts): queued at each start. */
  'secrets.reseal': NoPayload;
  /** One business's report for a month, exactly once. */
  'reports.monthlyEmail': { businessId: string; year: number; month: number };
  /** Patients an import wrote, into the trigram index of their search text (areas/patients/search-index-repository.ts). */
  'patients.searchIndex': NoPayload;
  /** An unacknowledged critical alarm's next escalation step (areas/machines/alarms.ts). */
  'alarms.escalate': { alarmId: string };
};

/** The payload of a job that needs nothing but its type. */
export type NoPayload = Record<string, never>;

export type JobType = keyof JobPayloads;

/** Jobs of any type and payload: for the runner's own tests, which make up their types. */
export type AnyJobs = Record<string, unknown>;
