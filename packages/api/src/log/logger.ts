import pino from 'pino';
import type { Config } from '../config/config.ts';
import { currentRequestId } from './request-scope.ts';

export type LogFields = Record<string, string | number | boolean | null | undefined>;
export type Logger = {
  trace(msg: string, fields?: LogFields): void;
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /** Whether entries at this level are written (to skip building fields nobody reads). */
  enabled(level: Exclude<Config['logLevel'], 'silent'>): boolean;
};

/**
 * pino, one JSON line per entry: `{"level":"info","time":"2026-…","pid":…,"msg":"…",…fields}` on stdout
 * (or `write`, for tests). A line written while a request, or a job a request queued, is handled carries
 * that request's `requestId` (http/request-meta.ts) unless the fields name one. Callers pass identifiers (request id, user id, business id), never request
 * bodies or query strings: those may hold patient data, which must not reach logs.
 */
export function createLogger(level: Config['logLevel'], write?: (line: string) => void): Logger {
  const log = pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin: (fields) => {
        if ('requestId' in fields) return {};
        const requestId = currentRequestId();
        return requestId === null ? {} : { requestId };
      },
    },
    write ? { write } : pino.destination({ dest: 1, sync: true }),
  );
  const at =
    (lvl: Exclude<Config['logLevel'], 'silent'>) =>
    (msg: string, fields?: LogFields): void => {
      if (fields) log[lvl](fields, msg);
      else log[lvl](msg);
    };
  return {
    trace: at('trace'),
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    enabled: (lvl) => log.isLevelEnabled(lvl),
  };
}

export const silentLogger: Logger = createLogger('silent');

/**
 * A line for whoever started the process: in production only the JSON line (a log collector reads
 * stdout, and a second, plain format would break it); outside production the JSON line and, for the
 * developer at the terminal, `text` as it reads best.
 */
export function announce(logger: Logger, production: boolean, msg: string, fields: LogFields, text: string): void {
  logger.info(msg, fields);
  if (!production) console.log(text);
}

/**
 * A failure before the logger exists (the configuration itself, a port or data folder in use): a JSON
 * line on stderr in production (NODE_ENV=production), else the message as people read it.
 */
export function startupFailure(env: Record<string, string | undefined>, msg: string, message: string): void {
  if (env.NODE_ENV === 'production') {
    console.error(
      JSON.stringify({ level: 'fatal', time: new Date().toISOString(), pid: process.pid, msg, error: message }),
    );
  } else {
    console.error(`\n${message}\n`);
  }
}
