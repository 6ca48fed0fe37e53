import type { Db } from '../db/src/index.ts';
import { loadConfig } from '../packages/api/src/config/config.ts';
import type { AppDeps } from '../packages/api/src/context/deps.ts';
import { createLogger } from '../packages/api/src/log/logger.ts';
import { createMailer } from '../packages/api/src/mail/mailer.ts';
import { createSessionAuth } from '../packages/api/src/sessions/sessions.ts';

/** The api's dependencies for a bench that runs the job runner in its own process: warnings only, real clock. */
export function benchDeps(opened: Db, env: Record<string, string | undefined>): AppDeps {
  const config = loadConfig(env);
  const logger = createLogger('warn', () => {});
  return {
    db: opened.db,
    dbKind: opened.kind,
    config,
    logger,
    now: Date.now,
    auth: createSessionAuth(() => opened.db),
    mailer: createMailer(config, logger),
  };
}
