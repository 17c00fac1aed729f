import { STATUS_CODES } from 'node:http';
import { type AppError, type ErrorKind } from '#kernel';

/**
 * An error as HTTP answers it: status, `error` word and headers from the table below; code,
 * message and the body's other fields from the error itself.
 */
export interface HttpError {
  status: number;
  /** Short machine word of the body, e.g. `unauthorized`, `not_found`, `validation_failed`. */
  error: string;
  code: string;
  message: string;
  /** The body's fields beside error, message and code. */
  extra: Record<string, unknown>;
  headers: Record<string, string>;
}

interface Row {
  status: number;
  error: string;
  /** Headers that come with it, from what the error says (its body fields and facts). */
  headers?: (error: AppError) => Record<string, string>;
}

/** Each kind of domain error as HTTP answers it, unless its code has a row of its own below. */
const BY_KIND: Readonly<Record<ErrorKind, Row>> = {
  invalid: { status: 400, error: 'bad_request' },
  unauthenticated: { status: 401, error: 'unauthorized' },
  payment_required: { status: 402, error: 'payment_required' },
  forbidden: { status: 403, error: 'forbidden' },
  not_found: { status: 404, error: 'not_found' },
  conflict: { status: 409, error: 'conflict' },
  precondition_failed: { status: 412, error: 'precondition_failed' },
  too_large: { status: 413, error: 'payload_too_large' },
  rate_limited: { status: 429, error: 'rate_limit_exceeded', headers: rateLimitHeaders },
  internal: { status: 500, error: 'internal_error' },
  upstream_failed: { status: 502, error: 'bad_gateway' },
  unavailable: { status: 503, error: 'service_unavailable' },
};

const REALM = 'svc';
const quote = (value: string) => `"${value.replace(/["\\]/g, '')}"`;

/**
 * RFC 6750's challenge: a request that carried no credential gets the bare challenge, one whose
 * token failed gets `error="invalid_token"` (§3.1).
 */
function bearerChallenge(error: AppError): Record<string, string> {
  return {
    'WWW-Authenticate':
      error.code === 'MISSING_AUTH'
        ? `Bearer realm=${quote(REALM)}`
        : `Bearer realm=${quote(REALM)}, error="invalid_token", error_description=${quote(error.message)}`,
  };
}

/** Retry-After from the body's `retry_after`; the window's X-RateLimit-* counters when known. */
function rateLimitHeaders(error: AppError): Record<string, string> {
  const seconds = error.extra.retry_after;
  return { ...error.facts, 'Retry-After': String(typeof seconds === 'number' ? seconds : 1) };
}

function retryAfter(seconds: number): Pick<Row, 'headers'> {
  const headers = { 'retry-after': String(seconds) };
  return { headers: () => headers };
}

/** The first next action (the checkout) as X-Next-Action and `Link: <...>; rel="payment"` (D18). */
function paymentLink(error: AppError): Record<string, string> {
  const first = (error.extra.next_actions as Array<{ url?: unknown }> | undefined)?.[0]?.url;
  return typeof first === 'string' ? { 'X-Next-Action': first, Link: `<${first}>; rel="payment"` } : {};
}

const usd = (amount: unknown) => {
  const cents = Math.round(Number(amount) * 100);
  const abs = Math.abs(cents);
  return `${cents < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
};

/** D18: the balance and the price beside the checkout link. */
function fundingHeaders(error: AppError): Record<string, string> {
  const { balance_usd: balance, price_usd: price } = error.extra;
  return {
    ...(typeof balance === 'number' ? { 'X-Credits-Balance': usd(balance) } : {}),
    ...(typeof price === 'number' ? { 'X-Credits-Required': usd(price) } : {}),
    ...paymentLink(error),
  };
}

const bearer: Partial<Row> = { headers: bearerChallenge };

/** Codes whose word or headers differ from their kind's. */
const BY_CODE: Readonly<Record<string, Partial<Row>>> = {
  VALIDATION_FAILED: { error: 'validation_failed' },
  MISSING_AUTH: bearer,
  INVALID_KEY: bearer,
  REVOKED_KEY: bearer,
  KEY_WRONG_SURFACE: bearer,
  KEY_WRONG_ENVIRONMENT: bearer,
  INVALID_TOKEN: bearer,
  EXPIRED_TOKEN: bearer,
  INSUFFICIENT_CREDITS: { error: 'insufficient_credits', headers: fundingHeaders },
  PAYMENT_DECLINED: { error: 'payment_failed', headers: paymentLink },
  PILOT_ENDED: { headers: paymentLink },
  MEMO_VERSION_CONFLICT: { headers: (e) => ({ ETag: `"${String(e.extra.current_version)}"` }) },
  IDEMPOTENCY_KEY_IN_PROGRESS: retryAfter(1),
  READ_MODEL_BEHIND: retryAfter(1),
  STORE_UNAVAILABLE: retryAfter(1),
  PAYMENT_PROVIDER_ERROR: retryAfter(5),
};

/** The table's answer to a domain error: the one mapping of errors to HTTP (REST, MCP, pages). */
export function httpErrorOf(error: AppError): HttpError {
  const row = { ...BY_KIND[error.kind], ...BY_CODE[error.code] };
  return {
    status: row.status,
    error: row.error,
    code: error.code,
    message: error.message,
    extra: error.extra,
    headers: row.headers?.(error) ?? {},
  };
}

/** The documented body (DESIGN D5): `{error, message, code, ...extra}`. */
export function httpErrorBody(error: HttpError): Record<string, unknown> {
  return { error: error.error, message: error.message, code: error.code, ...error.extra };
}

/** The status a domain error is answered with. */
export function httpStatusOf(error: AppError): number {
  return (BY_CODE[error.code]?.status ?? BY_KIND[error.kind].status) as number;
}

const ERROR_WORDS: Readonly<Record<number, string>> = {
  400: 'bad_request',
  401: 'unauthorized',
  402: 'payment_required',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  408: 'request_timeout',
  409: 'conflict',
  410: 'gone',
  411: 'length_required',
  412: 'precondition_failed',
  413: 'payload_too_large',
  414: 'uri_too_long',
  415: 'unsupported_media_type',
  422: 'unprocessable_entity',
  429: 'too_many_requests',
  431: 'request_header_fields_too_large',
  500: 'internal_error',
  501: 'not_implemented',
  502: 'bad_gateway',
  503: 'service_unavailable',
  504: 'gateway_timeout',
};

const wordOf = (status: number) => ERROR_WORDS[status] ?? (status >= 500 ? 'internal_error' : 'bad_request');

/**
 * An error of the HTTP exchange itself, not of the domain (a method the path does not take, a
 * media type, a request line too long): raised at the edge, already in HTTP's terms. The code
 * defaults to the status's word in capitals.
 */
export class HttpEdgeError extends Error implements HttpError {
  readonly error: string;
  readonly code: string;
  readonly extra: Record<string, unknown> = {};

  constructor(
    readonly status: number,
    message: string = STATUS_CODES[status] ?? 'Request failed.',
    code?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpEdgeError';
    this.error = wordOf(status);
    this.code = code ?? this.error.toUpperCase();
  }
}
