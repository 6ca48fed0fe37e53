import { AppError } from '@medlocker/core';
import { toErrorResponse } from '../http/errors.ts';
import type { Logger } from '../log/logger.ts';

/*
 * RFC 9457 problem details, the integration API's errors: `type` names the error code as a URN (there
 * is no page to fetch; docs/INTEGRATION-API.md lists them), `code` is the same code as the console's
 * errors, `errors` the per-field validation ids (SPEC §8) and messages.
 */

export const PROBLEM_TYPE = 'application/problem+json';

const titles: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export type Problem = {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  code: string;
  errors?: { path: string; id: string; message: string }[];
};

/** An error only the integration API has: a status and code outside core's AppError catalogue. */
export class ProblemError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ProblemError';
  }
}

/** Anything thrown, as a problem: AppErrors keep their code; anything unexpected is a logged 500. */
export function problemOf(
  error: unknown,
  elysiaCode: string | number,
  logger: Logger,
  requestId: string,
  instance: string,
): { status: number; problem: Problem; headers: Record<string, string> } {
  if (error instanceof ProblemError) {
    const problem = make(error.status, error.code, error.message, instance);
    return { status: error.status, problem, headers: {} };
  }
  const { status, body, headers } = toErrorResponse(error, elysiaCode, logger, requestId);
  const problem = make(status, body.error.code, body.error.message, instance);
  if (body.error.details) problem.errors = body.error.details;
  if (status === 401) headers['www-authenticate'] = 'Bearer realm="integration"';
  return { status, problem, headers };
}

const make = (status: number, code: string, detail: string, instance: string): Problem => ({
  type: `urn:medlocker:problem:${code.toLowerCase().replaceAll('_', '-')}`,
  title: titles[status] ?? 'Error',
  status,
  detail,
  instance,
  code,
});

/** A problem answered as it is sent. */
export function problemResponse(
  p: { status: number; problem: Problem; headers: Record<string, string> },
  extra: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(p.problem), {
    status: p.status,
    headers: { ...p.headers, ...extra, 'content-type': PROBLEM_TYPE },
  });
}

export const isIntegrationPath = (path: string) => path === '/integration/v1' || path.startsWith('/integration/v1/');

/** The AppError for a body that is not what a route takes, in the problem's words. */
export const notJson = () => new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the request body as application/json');
