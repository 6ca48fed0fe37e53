/**
 * The one error type services throw. The api turns it into `{ error: { code, message, details? } }`
 * with the status of {@link statusOf}; the console and cli read the same codes.
 */
export const errorStatus = {
  VALIDATION: 400,
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  /** An order action its current state does not allow (core's orderTransitions); details name the state. */
  INVALID_TRANSITION: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

/** One field's problem: where (dot path, '' for the whole input), the SPEC §5/§8 validation id and message. */
export type FieldError = { path: string; id: string; message: string };

export type ErrorBody = { error: { code: ErrorCode; message: string; details?: FieldError[] } };

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: FieldError[],
    /** Seconds, for RATE_LIMITED: sent as `Retry-After`. */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'AppError';
  }

  get status(): number {
    return errorStatus[this.code];
  }

  toBody(): ErrorBody {
    return { error: { code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) } };
  }
}

export const statusOf = (code: ErrorCode): number => errorStatus[code];
