import { useEffect, useRef } from 'react';
import { lastAnswerAt } from './api.ts';

/**
 * The patient session's clock, as the server keeps it (core's patientAuthPolicy, docs/SECURITY.md):
 * it times out after 30 minutes without a call and ends 24 hours after it began at the latest.
 */
export const sessionIdleMs = 30 * 60_000;

/** The order whose link the patient last confirmed, so /p can send a timed-out patient back to its check. */
const LAST_ORDER_KEY = 'medlocker.patient.lastOrder';

export function rememberOrder(orderId: string): void {
  try {
    sessionStorage.setItem(LAST_ORDER_KEY, orderId);
  } catch {
    // Storage refused (private mode with no quota): /p then just says to open the link again.
  }
}

export function lastOrder(): string | null {
  try {
    return sessionStorage.getItem(LAST_ORDER_KEY);
  } catch {
    return null;
  }
}

/**
 * Calls `onTimeout` once the session must have ended: 30 minutes after the server last answered, or
 * at its absolute end. Checked every 15 s and when the page is shown again (a phone's timers sleep),
 * without asking the server (which would move the idle clock on).
 */
export function useSessionTimeout(expires: number | null, onTimeout: () => void): void {
  const callback = useRef(onTimeout);
  callback.current = onTimeout;
  useEffect(() => {
    if (expires === null) return;
    const check = () => {
      const now = Date.now();
      if (now >= expires || now >= lastAnswerAt() + sessionIdleMs) callback.current();
    };
    const timer = setInterval(check, 15_000);
    document.addEventListener('visibilitychange', check);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', check);
    };
  }, [expires]);
}
