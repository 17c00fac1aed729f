import { type AppError, Errors } from '#kernel';

/** The codes of 401 answers (spec "Errors", D1, D2). */
export type AuthFailureCode =
  | 'MISSING_AUTH'
  | 'INVALID_KEY'
  | 'REVOKED_KEY'
  | 'KEY_WRONG_SURFACE'
  | 'KEY_WRONG_ENVIRONMENT'
  /** An OAuth access token that is unknown or revoked (ADR 0066). */
  | 'INVALID_TOKEN'
  /** An OAuth access token past its lifetime. */
  | 'EXPIRED_TOKEN';

/**
 * 401 `{error: "unauthorized", message, code}`; HTTP adds the RFC 6750 challenge for these codes
 * (libs/http's error table).
 */
export function unauthorized(code: AuthFailureCode, message: string): AppError {
  return Errors.unauthenticated(code, message);
}
