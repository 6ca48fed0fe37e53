import type { WebhookOutcome } from '@medlocker/core';
import type { Database } from '@medlocker/db';
import type { Kysely } from 'kysely';

/*
 * Webhook deliveries and attempts as the dispatcher would have left them, inserted directly: the
 * delivery console's tests read and replay them without sending anything.
 */

/** The i-th delivery id: UUIDv7-shaped, so the i-th is newer than every one before it. */
export const deliveryId = (i: number, business = 0) =>
  `01900000-0000-7000-8${String(business).padStart(3, '0')}-${String(i).padStart(12, '0')}`;

/** An integration client of the business, with a webhook URL unless given null. */
export async function seedWebhookClient(
  db: Kysely<Database>,
  businessId: string,
  options: { webhookUrl?: string | null; disabledAt?: number | null; failingSince?: number | null } = {},
): Promise<string> {
  const id = `client-${businessId}`;
  await db
    .insertInto('integration_clients')
    .values({
      id,
      business_id: businessId,
      partner_id: null,
      name: 'Example PMR',
      contact_email: 'support@pmr.example',
      webhook_url: options.webhookUrl === undefined ? 'https://pmr.example/hooks' : options.webhookUrl,
      secret_hash: null,
      secret_hint: null,
      webhook_secret_encrypted: null,
      rate_limit: 1200,
      period_start: 0,
      created: 1,
      updated: 1,
      webhook_disabled_at: options.disabledAt ?? null,
      webhook_failing_since: options.failingSince ?? null,
    })
    .execute();
  return id;
}

/** What the dispatcher would note of an answer: none for a 2xx. */
const errorOf = (status: number | null) =>
  status === null ? 'timed out after 10 s' : status >= 300 ? `HTTP ${status}` : null;

export type SeededDelivery = {
  i: number;
  status?: WebhookOutcome;
  eventType?: string;
  created?: number;
  orderingKey?: string | null;
  /** Attempts made, each `[attemptedAt, HTTP status | null]`; the last is the delivery's last. */
  attempts?: [number, number | null][];
};

/** Events with their deliveries (and attempts) for the business's client, the i-th at `created` (default i). */
export async function seedDeliveries(
  db: Kysely<Database>,
  q: { businessId: string; clientId: string; business?: number },
  deliveries: SeededDelivery[],
): Promise<string[]> {
  const rows = deliveries.map((d) => {
    const id = deliveryId(d.i, q.business);
    const created = d.created ?? d.i;
    const attempts = d.attempts ?? [];
    const last = attempts[attempts.length - 1];
    const status = d.status ?? 'pending';
    return { id, created, status, d, attempts, last };
  });
  if (rows.length === 0) return [];
  const { max } = await db
    .selectFrom('integration_events')
    .select((eb) => eb.fn.max('seq').as('max'))
    .where('client_id', '=', q.clientId)
    .executeTakeFirstOrThrow();
  await db
    .insertInto('integration_events')
    .values(
      rows.map((r, n) => ({
        id: r.id,
        business_id: q.businessId,
        client_id: q.clientId,
        seq: Number(max ?? 0) + n + 1,
        type: r.d.eventType ?? 'order.created',
        ordering_key: r.d.orderingKey ?? null,
        payload: JSON.stringify({ id: `order-${r.d.i}`, reference: `RX-${r.d.i}` }),
        created: r.created,
      })),
    )
    .execute();
  await db
    .insertInto('webhook_deliveries')
    .values(
      rows.map((r) => ({
        id: r.id,
        business_id: q.businessId,
        client_id: q.clientId,
        event_id: r.id,
        event_type: r.d.eventType ?? 'order.created',
        ordering_key: r.d.orderingKey ?? null,
        status: r.status,
        attempts: r.attempts.length,
        schedule_step: r.status === 'failed' ? 10 : r.attempts.length,
        next_attempt_at: r.created,
        last_attempt_at: r.last?.[0] ?? null,
        last_status: r.last?.[1] ?? null,
        last_error: r.status === 'failed' ? errorOf(r.last ? r.last[1] : 500) : null,
        delivered_at: r.status === 'succeeded' ? (r.last?.[0] ?? r.created) : null,
        created: r.created,
        updated: r.created,
      })),
    )
    .execute();
  const attempts = rows.flatMap((r) =>
    r.attempts.map(([at, status], n) => ({
      id: `${r.id}-a${n}`,
      delivery_id: r.id,
      business_id: q.businessId,
      attempted_at: at,
      trigger: 'schedule' as const,
      status,
      latency_ms: 12 + n,
      error: errorOf(status),
      response_excerpt: status === null ? null : `{"answer":${status}}`,
    })),
  );
  if (attempts.length > 0) await db.insertInto('webhook_attempts').values(attempts).execute();
  return rows.map((r) => r.id);
}
