import { AppError, patientAuthPolicy } from '@medlocker/core';

/**
 * One texted code a minute, to an order's link or to a mobile being added: 429 with the seconds left
 * when the last one went out less than `resendAfterSeconds` ago (never sent: `lastSend` null).
 */
export function checkResendWait(lastSend: number | null, now: number): void {
  const after = patientAuthPolicy.resendAfterSeconds * 1000;
  if (lastSend === null || now - lastSend >= after) return;
  const wait = Math.ceil((lastSend + after - now) / 1000);
  throw new AppError(
    'RATE_LIMITED',
    `A code was sent a moment ago. Please wait ${wait} seconds before asking for another.`,
    undefined,
    wait,
  );
}
