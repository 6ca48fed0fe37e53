import type { Database } from '@medlocker/db';
import type { Kysely } from 'kysely';

/*
 * A local webhook receiver for the delivery console's spec: `POST /hooks/{name}` answers the status set
 * for that name (200 until told otherwise) and keeps every request (headers and raw body), so a spec can
 * make an endpoint fail, come back, and verify what it got with the `standardwebhooks` library.
 */

export type ReceivedWebhook = { name: string; headers: Record<string, string>; body: string; answered: number };

export function startWebhookReceiver() {
  const answers = new Map<string, number>();
  const received: ReceivedWebhook[] = [];
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const name = new URL(request.url).pathname.replace(/^\/hooks\//, '');
      const answered = answers.get(name) ?? 200;
      received.push({ name, headers: Object.fromEntries(request.headers), body: await request.text(), answered });
      return new Response(answered < 300 ? 'thanks' : 'receiver is down', { status: answered });
    },
  });

  /** The harness's `/__webhooks…` routes; undefined for any other path. */
  async function route(url: URL, request: Request, db: Kysely<Database>): Promise<Response | undefined> {
    const name = url.searchParams.get('name') ?? 'default';
    if (url.pathname === '/__webhooks/url')
      return Response.json({ url: `http://127.0.0.1:${server.port}/hooks/${name}` });
    if (url.pathname === '/__webhooks/answer' && request.method === 'POST') {
      answers.set(name, Number(url.searchParams.get('status') ?? 200));
      return Response.json({ ok: true });
    }
    if (url.pathname === '/__webhooks/received') return Response.json(received.filter((r) => r.name === name));
    if (url.pathname === '/__webhooks/give-up' && request.method === 'POST') {
      return Response.json({ failed: await giveUp(db, url.searchParams.get('business') ?? '') });
    }
    return undefined;
  }

  return { route, stop: () => server.stop(true) };
}

/**
 * The end of the retry schedule (about three days) without the wait: the business's deliveries that
 * have failed and wait at least a minute for their next attempt become failed, as after their last
 * step. Answers how many.
 */
async function giveUp(db: Kysely<Database>, businessId: string): Promise<number> {
  const now = Date.now();
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ status: 'failed', updated: now })
    .where('business_id', '=', businessId)
    .where('status', '=', 'pending')
    .where('attempts', '>', 0)
    .where('next_attempt_at', '>', now + 60_000)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
