/**
 * The one error type of the domain and the application (DESIGN §4, D5): what went wrong, in
 * domain words. It carries no HTTP status and no header; libs/http's error table turns it into
 * the documented answer (`{error, message, code, ...extra}`, problem+json on the agent surface).
 */
export interface ErrorDetail {
  path: string;
  message: string;
}

/** What kind of refusal an error is; the transport picks its status from this (and the code). */
export type ErrorKind =
  /** The input is wrong (a field, a cursor, a malformed body). */
  | 'invalid'
  /** No credential, or one that does not work. */
  | 'unauthenticated'
  /** The caller must pay (credits, a plan) before this can happen. */
  | 'payment_required'
  /** The caller is known but may not do this. */
  | 'forbidden'
  | 'not_found'
  /** The state does not allow it (exists already, already decided, changed meanwhile). */
  | 'conflict'
  /** The caller's precondition (a version it read) no longer holds. */
  | 'precondition_failed'
  /** The input is larger than allowed. */
  | 'too_large'
  /** Too many requests from this caller for now. */
  | 'rate_limited'
  /** A provider the service depends on failed (payments). */
  | 'upstream_failed'
  /** The service cannot do it now; the same request may work later. */
  | 'unavailable'
  | 'internal';

export class AppError extends Error {
  constructor(
    readonly kind: ErrorKind,
    /** Stable upper-case code, e.g. `INVALID_KEY`, `VALIDATION_FAILED`. */
    readonly code: string,
    message: string,
    /** Fields the caller is shown beside code and message (`details`, `retry_after`, `next_actions`, ...). */
    readonly extra: Record<string, unknown> = {},
    /**
     * Facts the body does not show but a transport may (a rate-limit window's counters, which
     * HTTP sends as headers and MCP as `_meta`).
     */
    readonly facts: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const Errors = {
  validation(details: ErrorDetail[], message = 'The request is not valid.'): AppError {
    return new AppError('invalid', 'VALIDATION_FAILED', message, { details });
  },
  badRequest(code: string, message: string, extra: Record<string, unknown> = {}): AppError {
    return new AppError('invalid', code, message, extra);
  },
  unauthenticated(code: string, message: string, extra: Record<string, unknown> = {}): AppError {
    return new AppError('unauthenticated', code, message, extra);
  },
  paymentRequired(code: string, message: string, extra: Record<string, unknown> = {}): AppError {
    return new AppError('payment_required', code, message, extra);
  },
  forbidden(code: string, message: string, extra: Record<string, unknown> = {}): AppError {
    return new AppError('forbidden', code, message, extra);
  },
  notFound(message = 'Not found.', code = 'NOT_FOUND', extra: Record<string, unknown> = {}): AppError {
    return new AppError('not_found', code, message, extra);
  },
  conflict(message: string, code = 'CONFLICT', extra: Record<string, unknown> = {}): AppError {
    return new AppError('conflict', code, message, extra);
  },
  preconditionFailed(code: string, message: string, extra: Record<string, unknown> = {}): AppError {
    return new AppError('precondition_failed', code, message, extra);
  },
  payloadTooLarge(limitBytes: number): AppError {
    return new AppError('too_large', 'PAYLOAD_TOO_LARGE', `The request body exceeds ${limitBytes} bytes.`);
  },
  rateLimited(
    code: string,
    message: string,
    extra: Record<string, unknown> = {},
    facts: Record<string, string> = {},
  ): AppError {
    return new AppError('rate_limited', code, message, extra, facts);
  },
  upstreamFailed(code: string, message: string): AppError {
    return new AppError('upstream_failed', code, message);
  },
  unavailable(message: string, code = 'SERVICE_UNAVAILABLE'): AppError {
    return new AppError('unavailable', code, message);
  },
  internal(): AppError {
    return new AppError('internal', 'INTERNAL_ERROR', 'An unexpected error occurred.');
  },
};
