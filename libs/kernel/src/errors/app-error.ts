/**
 * The one error type the HTTP layer turns into the documented body (DESIGN D5):
 * `{error, message, code, ...details}`; on the agent surface also RFC 9457 fields.
 */
export interface ErrorDetail {
  path: string;
  message: string;
}

export class AppError extends Error {
  constructor(
    readonly status: number,
    /** Short machine word, e.g. `unauthorized`, `not_found`, `validation_failed`. */
    readonly error: string,
    /** Stable upper-case code, e.g. `INVALID_KEY`, `VALIDATION_FAILED`. */
    readonly code: string,
    message: string,
    /** Extra top-level fields of the body (`details`, `retry_after`, `required_scope`, ...). */
    readonly extra: Record<string, unknown> = {},
    /** Extra response headers (`Retry-After`, `WWW-Authenticate`, ...). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }

  body(): Record<string, unknown> {
    return { error: this.error, message: this.message, code: this.code, ...this.extra };
  }
}

export const Errors = {
  validation(details: ErrorDetail[], message = 'The request is not valid.'): AppError {
    return new AppError(400, 'validation_failed', 'VALIDATION_FAILED', message, { details });
  },
  badRequest(code: string, message: string, extra: Record<string, unknown> = {}): AppError {
    return new AppError(400, 'bad_request', code, message, extra);
  },
  notFound(message = 'Not found.', code = 'NOT_FOUND'): AppError {
    return new AppError(404, 'not_found', code, message);
  },
  conflict(message: string, code = 'CONFLICT', extra: Record<string, unknown> = {}): AppError {
    return new AppError(409, 'conflict', code, message, extra);
  },
  payloadTooLarge(limitBytes: number): AppError {
    return new AppError(413, 'payload_too_large', 'PAYLOAD_TOO_LARGE', `The request body exceeds ${limitBytes} bytes.`);
  },
  unavailable(message: string, code = 'SERVICE_UNAVAILABLE'): AppError {
    return new AppError(503, 'service_unavailable', code, message);
  },
  internal(): AppError {
    return new AppError(500, 'internal_error', 'INTERNAL_ERROR', 'An unexpected error occurred.');
  },
};
