import type { DeliveryReport, ReportOutcome } from '../delivery/messages/delivery-reports.ts';

/*
 * What the delivery-report routes of every provider share (callbacks/message-reports.ts): reading and
 * refusing a body, and the report's hand-off.
 */

/** Applies one provider's report to its message (delivery/messages/delivery-reports.ts). */
export type ApplyReport = (report: DeliveryReport) => Promise<ReportOutcome>;

/** The largest report body read: providers send a few KB; WhatsApp batches stay far below this. */
const MAX_BODY = 256 * 1024;

/** A refusal: the status and a short body; nothing changed. */
export const refuse = (set: { status?: number | string }, status: number, message: string) => {
  set.status = status;
  return { error: message };
};

export const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** The body as text, refused past MAX_BODY (null). */
export async function rawBody(request: Request): Promise<string | null> {
  const text = await request.text();
  return text.length > MAX_BODY ? null : text;
}

export function parseObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
