import { AppError } from '#kernel';

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

const REALM = 'svc';

function quote(value: string): string {
  return `"${value.replace(/["\\]/g, '')}"`;
}

/**
 * 401 `{error: "unauthorized", message, code}` with the RFC 6750 challenge: a request that
 * carried no credential gets the bare challenge, one whose token failed gets
 * `error="invalid_token"` (RFC 6750 §3.1).
 */
export function unauthorized(code: AuthFailureCode, message: string): AppError {
  const challenge =
    code === 'MISSING_AUTH'
      ? `Bearer realm=${quote(REALM)}`
      : `Bearer realm=${quote(REALM)}, error="invalid_token", error_description=${quote(message)}`;
  return new AppError(401, 'unauthorized', code, message, {}, { 'WWW-Authenticate': challenge });
}
