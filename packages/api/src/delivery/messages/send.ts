import { counted } from '@medlocker/core';
import type { AppDeps } from '../../context/deps.ts';
import type { JobPayloads } from '../../jobs/catalogue.ts';
import type { JobHandler } from '../../jobs/runner.ts';
import { PermanentJobError } from '../../jobs/runner.ts';
import { type Gateway, GatewayError, type ProviderName } from './gateways/gateway.ts';
import type { MessagePort } from './port.ts';
import { type HandOverMark, type Prepared, prepareSend } from './prepare-send.ts';
import { reportsEveryMessage } from './reconcile.ts';
import { reportUrlFor } from './report-urls.ts';
import { clearHandOver, lockMessage, type QueuedMessage, type Tx } from './repository.ts';
import { recordFailed, recordSent, recordUnconfirmed } from './send-outcome.ts';

export { maskRecipient, senderFrom } from './recipient-words.ts';

export type SendOptions = {
  gateways: Partial<Record<ProviderName, Gateway>>;
  /** The areas' side: the message's order, the business's settings, short links. */
  areas: MessagePort;
  /** Tests only: runs after the hand-over mark is committed and before the gateway is called (a worker dying there). */
  beforeSend?: (messageId: string) => Promise<void> | void;
  /** Tests only: runs after the gateway answered and before the send is recorded (a worker dying there). */
  afterSend?: (messageId: string) => Promise<void> | void;
};

/**
 * How long another worker waits before it takes over a send whose worker stopped renewing it (died):
 * an attempt is two short transactions and one gateway call (at most SEND_TIMEOUT_MS), and the runner
 * renews the lease while it runs, so this is what a killed worker's messages wait before another
 * worker takes them (docs/PERFORMANCE.md "Messages").
 */
export const MESSAGE_SEND_LEASE_MS = 10_000;

/** The runner's handler for `message.send` jobs (payload `{ messageId }`, queued by outbox/index.ts). */
export const messageSendHandler = (deps: AppDeps, options: SendOptions): JobHandler<JobPayloads['message.send']> => ({
  leaseMs: MESSAGE_SEND_LEASE_MS,
  run: async ({ job, dependsOn, complete }) => {
    const { messageId } = job.payload;
    await sendMessage(
      deps,
      options,
      messageId,
      { lastAttempt: job.attempts >= job.maxAttempts, attempts: job.attempts, complete },
      dependsOn,
    );
  },
});

/** How the runner runs this attempt: whether it is the last, how many so far, and the job's end. */
type Attempt = {
  lastAttempt?: boolean;
  attempts?: number;
  /** Marks the runner's job done in the transaction that records the outcome (jobs/runner.ts `complete`). */
  complete?: (tx: Tx) => Promise<void>;
};

/**
 * Sends one outbox message, at most once (docs/decisions/messaging.md "Sending messages"). Before the gateway is
 * called the message is marked handed over (`sent_at`, `provider`) in a committed transaction; a retry
 * that finds it so marked without a provider id knows an earlier attempt died after (or while) sending
 * and records it as sent rather than sending again. Retryable gateway failures clear the mark and throw
 * (the runner retries); permanent ones fail the message and the order's status and end the job dead.
 */
export async function sendMessage(
  deps: AppDeps,
  options: SendOptions,
  messageId: string,
  attempt: Attempt = {},
  /** Told the gateway before it is called: the runner paces retries by how that gateway is doing. */
  dependsOn?: (service: string) => void,
): Promise<void> {
  const { areas } = options;
  const prepared = await deps.db.transaction().execute(async (tx): Promise<Prepared> => {
    const outcome = await prepareSend(tx, deps, options.gateways, areas, messageId);
    // Nothing to send (already sent, recorded, or stale): the job ends with what this transaction records.
    if (outcome.kind === 'done' || outcome.kind === 'stale') await attempt.complete?.(tx);
    return outcome;
  });
  if (prepared.kind === 'done' || prepared.kind === 'stale') {
    await prepared.publish?.();
    return;
  }
  if (prepared.kind === 'refused') {
    await recordFailed(deps, areas, prepared.message, prepared.provider, prepared.reason);
    throw new PermanentJobError(prepared.reason);
  }

  const { message, gateway } = prepared;
  await options.beforeSend?.(message.id);
  dependsOn?.(gateway.provider);
  let result: { provider: ProviderName; providerMessageId: string };
  try {
    result = await gateway.send({
      to: message.recipient,
      body: prepared.body,
      sender: prepared.sender,
      reference: message.id,
      reportUrl: reportUrlFor(deps.config, gateway.provider, message.id),
      ...(message.subject ? { subject: message.subject } : {}),
      ...(prepared.locales ? { locales: prepared.locales } : {}),
    });
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    return onGatewayError(deps, areas, { message, gateway, mark: prepared.mark }, attempt, error);
  }
  await options.afterSend?.(message.id);
  // The answer and the job's end in one transaction (one commit): a worker dying before it commits
  // leaves both undone, and the job's next run finds the message handed over and unconfirmed.
  const publish = await deps.db.transaction().execute(async (tx) => {
    const locked = await lockMessage(tx, message.id);
    await attempt.complete?.(tx);
    if (!locked || locked.providerMessageId !== null) return undefined;
    return recordSent(tx, deps, areas, locked, result);
  });
  await publish?.();
}

/**
 * A gateway that failed: no answer in time (recorded unconfirmed when its reports will settle it), a
 * retryable failure (the hand-over mark cleared and thrown for the runner to retry, failed on the last
 * try), or a refusal (failed for good).
 */
async function onGatewayError(
  deps: AppDeps,
  areas: MessagePort,
  sent: { message: QueuedMessage; gateway: Gateway; mark: HandOverMark },
  attempt: Attempt,
  error: GatewayError,
): Promise<void> {
  const { message, gateway, mark } = sent;
  if (error.retryable && error.maybeSent && reportsEveryMessage(deps.config, gateway.provider)) {
    // No answer in time (or the connection dropped after the request went): it may be on its way.
    // Recorded unconfirmed, as after a crash: its report confirms it, or after the grace period with
    // no report it is sent again (reconcile.ts). Never sent again blindly.
    const publish = await deps.db.transaction().execute(async (tx) => {
      const locked = await lockMessage(tx, message.id);
      const ours =
        locked &&
        locked.providerMessageId === null &&
        locked.status === 'pending' &&
        locked.sentAt === mark.sentAt &&
        locked.providerStatus === mark.providerStatus;
      await attempt.complete?.(tx);
      if (!ours) return undefined;
      return recordUnconfirmed(tx, deps, areas, locked, gateway.provider);
    });
    deps.logger.warn('gateway gave no answer: message recorded unconfirmed', {
      messageId: message.id,
      reason: error.reason,
    });
    await publish?.();
    return;
  }
  if (error.retryable) {
    // It did not go through (or the provider said try later): clear the hand-over mark so the retry
    // sends. Only this attempt's mark: when this worker's lease ran out during the call, another worker
    // may already have recorded the message unconfirmed (and queued its check); that stands.
    const cleared = await clearHandOver(deps.db, message.id, mark, { last_error: error.reason, updated: deps.now() });
    if (!cleared) {
      deps.logger.warn('gateway failure after another worker took the message over', {
        messageId: message.id,
        reason: error.reason,
      });
      return;
    }
    if (!attempt.lastAttempt) throw error;
    // The runner's last try: the message failed, and the order and its timeline say so (a staff retry
    // of the dead job sends it again).
    const tries = attempt.attempts ?? 1;
    const reason = `${error.reason} (gave up after ${counted(tries, 'attempt')})`;
    await recordFailed(deps, areas, message, gateway.provider, reason, 'GAVE_UP');
    throw new PermanentJobError(reason);
  }
  // A refusal the provider answered (HTTP 4xx, SMTP 5xx) means it took nothing: clear the hand-over
  // mark so a staff retry of the dead job sends it. A 2xx we could not read keeps the mark (it may
  // have gone), and the retry records it unconfirmed instead of sending the PIN again.
  const refused = error.httpStatus !== null && error.httpStatus >= 400;
  await recordFailed(deps, areas, message, gateway.provider, error.reason, 'REFUSED', refused);
  throw new PermanentJobError(error.reason);
}
