import type { Config } from '../config.ts';

export type LogFields = Record<string, string | number | boolean | null | undefined>;
export type Logger = {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
};

const rank = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;

/**
 * One JSON line per entry on stdout. Callers pass identifiers (request id, user id, business id),
 * never request bodies: those may hold patient data, which must not reach logs.
 */
export function createLogger(level: Config['logLevel'], write: (line: string) => void = console.log): Logger {
  const at =
    (lvl: Exclude<Config['logLevel'], 'silent'>) =>
    (msg: string, fields?: LogFields): void => {
      if (rank[lvl] < rank[level]) return;
      write(JSON.stringify({ t: new Date().toISOString(), level: lvl, msg, ...fields }));
    };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

export const silentLogger: Logger = createLogger('silent');
