import type { Database, DbKind, PoolStats } from '@medlocker/db';
import type { Kysely } from 'kysely';
import type { Config } from '../config/config.ts';
import type { LiveHub } from '../live/live.ts';
import type { Logger } from '../log/logger.ts';
import type { LocalTexts } from '../mail/local-texts.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { AuthPort } from './actor.ts';

/** Everything the app needs from outside, injected so tests can swap any part. */
export type AppDeps = {
  db: Kysely<Database>;
  dbKind: DbKind;
  /** The database pool's state now, for /metrics (createDb's `pool`); absent: not reported. */
  dbPool?: () => PoolStats | { total: number; idle: null; waiting: null };
  config: Config;
  logger: Logger;
  /** Current time in ms; tests move it to expire sessions and lockouts. */
  now: () => number;
  auth: AuthPort;
  /** Sends the password-reset and invitation emails. */
  mailer: Mailer;
  /**
   * The SMS and WhatsApp messages the local gateway stood in for (mail/local-texts.ts), read on the
   * console's Mailbox page. Absent in production, and where nobody reads them: the local gateway keeps nothing.
   */
  localTexts?: LocalTexts;
  /**
   * Live pushes to consoles and commands to connected lockers (live/live.ts). Absent: one in-process hub
   * per app (`liveOf(deps)`); server.ts gives a PostgreSQL LISTEN/NOTIFY one so several processes share it.
   */
  live?: LiveHub;
  /**
   * Set while the process is stopping: /readyz answers 503 so the balancer takes it out of rotation
   * before it stops taking requests (server.ts). Absent: always ready.
   */
  lifecycle?: { draining: boolean };
  /** Where the built console lives (index.html and assets); absent in API-only tests. */
  consoleDir?: string;
  /** Where the built patient page lives (packages/patient/dist); absent in API-only tests. */
  patientDir?: string;
};
