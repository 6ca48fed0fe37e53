/**
 * Times of the locker protocol. The hub sets the heartbeat interval in its BootNotification result;
 * these are the defaults and the rules both sides follow.
 */
export const protocolTiming = {
  /** Seconds between heartbeats unless the hub says otherwise. */
  defaultHeartbeatIntervalSeconds: 60,
  /** A machine is offline once this many heartbeat intervals pass without hearing from it. */
  missedHeartbeatsBeforeOffline: 3,
  /** How long either side waits for the answer to a call before treating it as failed. */
  callTimeoutMs: 30_000,
  /** First reconnect delay ceiling, and the most a locker ever waits between attempts. */
  reconnectBaseMs: 1_000,
  reconnectCapMs: 5 * 60_000,
} as const;

/** When a machine last heard at `lastSeen` counts as offline. */
export const offlineAfterMs = (heartbeatIntervalSeconds: number): number =>
  heartbeatIntervalSeconds * 1000 * protocolTiming.missedHeartbeatsBeforeOffline;

/**
 * Reconnect delay with exponential backoff and full jitter (a random wait between 0 and
 * min(cap, base·2^attempt)): after an outage, thousands of lockers must not all call back at once.
 * `attempt` counts failed attempts since the last good connection, from 0.
 */
export function reconnectDelayMs(
  attempt: number,
  random: () => number = Math.random,
  baseMs: number = protocolTiming.reconnectBaseMs,
  capMs: number = protocolTiming.reconnectCapMs,
): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.min(Math.max(attempt, 0), 30));
  return Math.floor(random() * ceiling);
}
