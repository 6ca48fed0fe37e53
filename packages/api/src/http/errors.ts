import { AppError, type ErrorBody } from '@medlocker/core';
import type { Logger } from '../log/logger.ts';

/**
 * Maps anything thrown to the one error body. AppErrors keep their code; Elysia's own errors (unknown
 * route, unparsable input) become 404/400; everything else is a 500 that is logged, never leaked.
 */
export function toErrorResponse(
  error: unknown,
  elysiaCode: string | number,
  logger: Logger,
  requestId: string,
): { status: number; body: ErrorBody; headers: Record<string, string> } {
  if (error instanceof AppError) {
    const headers: Record<string, string> = {};
    if (error.retryAfter !== undefined) headers['retry-after'] = String(Math.ceil(error.retryAfter));
    if (error.status >= 500) logger.error('request failed', { requestId, code: error.code, message: error.message });
    return { status: error.status, body: error.toBody(), headers };
  }
  // A malformed percent-escape (`%ZZ`) in a path parameter or a cookie: the request, not the server, is wrong.
  if (error instanceof URIError) {
    return {
      status: 400,
      body: { error: { code: 'BAD_REQUEST', message: 'The request could not be read' } },
      headers: {},
    };
  }
  switch (elysiaCode) {
    case 'NOT_FOUND':
      return { status: 404, body: { error: { code: 'NOT_FOUND', message: 'No such route' } }, headers: {} };
    case 'PARSE':
    case 'VALIDATION':
      return {
        status: 400,
        body: { error: { code: 'BAD_REQUEST', message: 'The request could not be read' } },
        headers: {},
      };
  }
  logger.error('unexpected error', {
    requestId,
    error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    stack: error instanceof Error ? error.stack?.split('\n').slice(0, 6).join(' | ') : undefined,
  });
  return {
    status: 500,
    body: { error: { code: 'INTERNAL', message: `Something went wrong on our side (request ${requestId})` } },
    headers: {},
  };
}
