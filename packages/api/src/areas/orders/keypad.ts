/*
 * How a locker's keypad stops PIN guessing without locking out the next patient (docs/decisions/orders.md
 * "A keypad that slows guessing"). A keypad has one source of tries, the person in front of it, and the
 * next patient is that source too: so no try locks the keypad for long. The first few wrong PINs in the
 * window are free (a patient fumbling); after them each try waits for a delay that doubles with every
 * further wrong PIN, up to a ceiling. A guesser gets at most one try per ceiling (30 an hour), and the
 * patient who comes after waits at most the ceiling once. Enough wrong PINs in the window also tell the
 * business's staff, who can go and look.
 */

export const keypadRule = {
  /** Wrong PINs in the window that cost no wait. */
  freeTries: 5,
  /** How far back wrong PINs count. */
  windowMs: 60 * 60_000,
  /** The wait after the first wrong PIN beyond the free ones; each further one doubles it… */
  firstDelayMs: 5_000,
  /** …up to this: at most one guess in two minutes, and no patient waits longer than this. */
  maxDelayMs: 120_000,
  /** The wrong PIN in the window that raises the staff alert (once as the count passes it). */
  alertAt: 10,
} as const;

/** The wait before the next try after `wrong` wrong PINs in the window (0 while they are free). */
export function delayAfter(wrong: number): number {
  if (wrong < keypadRule.freeTries) return 0;
  return Math.min(keypadRule.maxDelayMs, keypadRule.firstDelayMs * 2 ** (wrong - keypadRule.freeTries));
}

/**
 * How long a try made at `now` must still wait, given the times of the wrong PINs before it in the
 * window (oldest first; tries not yet checked count as wrong, so tries sent together cannot all pass):
 * 0 when it may be checked.
 */
export function keypadWait(wrongBefore: readonly number[], now: number): number {
  const last = wrongBefore[wrongBefore.length - 1];
  if (last === undefined) return 0;
  return Math.max(0, last + delayAfter(wrongBefore.length) - now);
}
