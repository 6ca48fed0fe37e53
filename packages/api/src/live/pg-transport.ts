import pg from 'pg';
import type { Logger } from '../log/logger.ts';
import type { Envelope, LiveTransport } from './live.ts';

const CHANNEL = 'medlocker_live';
// NOTIFY payloads must stay under 8000 bytes; pushes are ids and small params, far below.
const MAX_PAYLOAD = 7900;

/**
 * Fan-out across api processes through PostgreSQL LISTEN/NOTIFY: each process LISTENs on one channel
 * on a connection of its own and NOTIFYs there; PostgreSQL delivers to every listener, the sender too.
 * Reconnects after a lost connection (pushes sent meanwhile are lost: consoles reload on reconnect).
 */
export async function pgTransport(url: string, logger: Logger): Promise<LiveTransport> {
  const handlers: ((e: Envelope) => void)[] = [];
  let closed = false;
  let client: pg.Client | undefined;

  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: url });
    c.on('notification', (msg) => {
      if (msg.channel !== CHANNEL || !msg.payload) return;
      try {
        const envelope = JSON.parse(msg.payload) as Envelope;
        for (const h of handlers) h(envelope);
      } catch (error) {
        logger.warn('unreadable live notification', { error: String(error) });
      }
    });
    c.on('error', (error) => {
      logger.warn('live LISTEN connection lost', { error: error.message });
      client = undefined;
      if (!closed) setTimeout(() => void connect().catch(() => {}), 1000);
    });
    await c.connect();
    await c.query(`listen ${CHANNEL}`);
    client = c;
  };
  await connect();

  return {
    send(envelope) {
      const payload = JSON.stringify(envelope);
      if (payload.length > MAX_PAYLOAD) {
        logger.warn('live push too large for NOTIFY, dropped', { bytes: payload.length });
        return;
      }
      if (!client) {
        logger.warn('live push dropped: no LISTEN connection');
        return;
      }
      client.query('select pg_notify($1, $2)', [CHANNEL, payload]).catch((error: Error) => {
        logger.warn('live NOTIFY failed', { error: error.message });
      });
    },
    onReceive: (handler) => void handlers.push(handler),
    async close() {
      closed = true;
      await client?.end().catch(() => {});
    },
  };
}
