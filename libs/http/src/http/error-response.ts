import { STATUS_CODES } from 'node:http';
import { HttpException } from '@nestjs/common';
import { ConcurrentModificationError, DuplicateKeyError } from '#documents';
import { EventStoreUnavailableError, WrongExpectedRevisionError } from '#eventstore';
import { ProjectionTimeoutError } from '#projections';
import { AppError, Errors } from '#kernel';
import { HttpEdgeError, type HttpError, httpErrorBody, httpErrorOf } from './error-table.js';

/** The request body limit of every app (DESIGN D5): larger bodies get 413. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/** Paths whose errors are also RFC 9457 problem documents (the agent data surface). */
export const PROBLEM_JSON_PREFIXES = ['/api/v1'];

export interface ErrorResponse {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, string>;
  /** True for server faults: the caller logs the original error with its stack. */
  unexpected: boolean;
  /** What the problem enricher threw, if it did (the body is then sent without its additions). */
  enrichFailure?: unknown;
}

/** What a problem enricher knows of the failed request. */
export interface ProblemContext {
  method: string;
  /** The request path, without the query. */
  path: string;
  /** The request target as sent: path and query. */
  url: string;
  status: number;
  /** The headers the error response will carry (Retry-After, WWW-Authenticate, ...), as set. */
  headers: Readonly<Record<string, string>>;
  /** The framework's request object (Fastify's), e.g. for the public base URL. */
  request: unknown;
}

/**
 * Adds fields to a problem+json body before it is sent (a product's `next_actions`, say),
 * changing `problem` in place. Runs on errors only, so the success path never pays for it.
 */
export type ProblemEnricher = (problem: Record<string, unknown>, context: ProblemContext) => void;

/** How toErrorResponse shapes a body. */
export interface ErrorResponseOptions {
  /** Paths answered with application/problem+json (default `/api/v1`). */
  problemPrefixes?: readonly string[];
  /** Origin put before problem `type` URIs (the public URL); relative when absent. */
  problemTypeBase?: string;
  /** Applied to problem+json bodies only. */
  enrich?: ProblemEnricher;
  /**
   * The methods a path is routed with (RouteMethods): a request no route matches, on a path that
   * takes other methods, is answered 405 METHOD_NOT_ALLOWED with Allow instead of 404.
   */
  allowedMethods?: (path: string) => readonly string[];
}

/** 405 for a path that exists with other methods; `Allow` lists them (RFC 9110 §15.5.6). */
export function methodNotAllowed(method: string, path: string, allow: readonly string[]): HttpEdgeError {
  return new HttpEdgeError(
    405,
    `${path} does not take ${method}; it takes ${allow.join(', ')}.`,
    'METHOD_NOT_ALLOWED',
    {
      Allow: allow.join(', '),
    },
  );
}

/** Fastify's own errors (content-type parsing, body limit, URL) by code, as the adapter hands them on. */
function fromFastifyCode(code: string, method?: string, path?: string): AppError | HttpEdgeError | undefined {
  switch (code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return Errors.badRequest('MALFORMED_JSON', 'The request body is not valid JSON.');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return Errors.payloadTooLarge(BODY_LIMIT_BYTES);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_TYPE':
      return new HttpEdgeError(415, 'The request content type is not supported; send application/json.');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return Errors.badRequest('INVALID_CONTENT_LENGTH', 'The Content-Length header does not match the body.');
    case 'FST_ERR_BAD_URL':
      return Errors.badRequest('MALFORMED_URL', `The request URL is not valid${path ? `: ${path}` : ''}.`);
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new HttpEdgeError(414, 'A path segment of the request is too long.');
    case 'FST_ERR_ASYNC_CONSTRAINT':
      return Errors.notFound(`No route matches ${method ?? ''} ${path ?? ''}`.trim() + '.', 'ROUTE_NOT_FOUND');
    default:
      return undefined;
  }
}

/** Error codes of a store that cannot write now (better-sqlite3's SqliteError codes, Node's errno). */
const STORAGE_UNAVAILABLE_CODES = /^(SQLITE_FULL|SQLITE_IOERR(_\w+)?|SQLITE_BUSY(_\w+)?|ENOSPC|EDQUOT|EIO)$/;

function causeCode(e: unknown): string | undefined {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** What toHttpError maps: the domain's error through the table, the edge's as it is. */
function answer(error: AppError | HttpEdgeError): HttpError {
  return error instanceof AppError ? httpErrorOf(error) : error;
}

/**
 * Maps anything thrown while serving a request to the documented error (DESIGN D5), storage
 * errors included (the storage libs sit below this one); domain errors through the error table.
 */
export function toHttpError(
  exception: unknown,
  request?: { method?: string; path?: string },
): { error: HttpError; unexpected: boolean } {
  if (exception instanceof AppError)
    return { error: httpErrorOf(exception), unexpected: exception.kind === 'internal' };
  if (exception instanceof HttpEdgeError) return { error: exception, unexpected: exception.status >= 500 };
  if (
    exception instanceof WrongExpectedRevisionError ||
    exception instanceof ConcurrentModificationError ||
    exception instanceof DuplicateKeyError
  ) {
    return {
      error: answer(Errors.conflict('The resource was changed by another request; retry.', 'CONCURRENT_MODIFICATION')),
      unexpected: false,
    };
  }
  if (exception instanceof ProjectionTimeoutError) {
    // Thrown by a command's read-your-writes wait: the change is durable, only reading it back
    // timed out. A 500 would invite a retry that repeats the change.
    const e = Errors.unavailable(
      'The change was recorded, but the read models did not catch up in time to answer with it. Read it again shortly; repeating the request would repeat the change.',
      'READ_MODEL_BEHIND',
    );
    return { error: answer(e), unexpected: true };
  }
  if (exception instanceof EventStoreUnavailableError) {
    const e = Errors.unavailable('The event store is unavailable; retry later.', 'STORE_UNAVAILABLE');
    return { error: answer(e), unexpected: true };
  }
  const code = causeCode(exception);
  if (code !== undefined && STORAGE_UNAVAILABLE_CODES.test(code)) {
    // A store that cannot write now (a full disk, an I/O error, a lock held too long): nothing
    // was acknowledged, and the same request may work once the store recovers. Found by
    // `chaos full-disk`: the document store's SQLITE_FULL answered 500 where the event store's 503.
    const e = Errors.unavailable('The data store cannot write now; retry later.', 'STORE_UNAVAILABLE');
    return { error: answer(e), unexpected: true };
  }
  if (code === 'ECONNRESET' || (exception instanceof Error && exception.message === 'aborted')) {
    // The client went away mid-request: nothing to answer and nothing wrong here.
    return {
      error: answer(Errors.badRequest('REQUEST_ABORTED', 'The request was aborted by the client.')),
      unexpected: false,
    };
  }
  const fastifyCode = code ?? causeCode((exception as { cause?: unknown } | null)?.cause);
  if (fastifyCode?.startsWith('FST_')) {
    const mapped = fromFastifyCode(fastifyCode, request?.method, request?.path);
    if (mapped) return { error: answer(mapped), unexpected: false };
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    if (status >= 500)
      return {
        error:
          status === 500
            ? answer(Errors.internal())
            : new HttpEdgeError(status, STATUS_CODES[status] ?? 'Server error.'),
        unexpected: true,
      };
    // Nest's not-found handler throws `Cannot GET /path` when no route matches.
    if (status === 404 && /^Cannot [A-Z]+ /.test(exception.message)) {
      return {
        error: answer(
          Errors.notFound(
            `No route matches ${request?.method ?? ''} ${request?.path ?? ''}`.replace(/\s+$/, '') + '.',
            'ROUTE_NOT_FOUND',
          ),
        ),
        unexpected: false,
      };
    }
    return {
      error: new HttpEdgeError(status, exception.message || STATUS_CODES[status] || 'Request failed.'),
      unexpected: false,
    };
  }
  return { error: answer(Errors.internal()), unexpected: true };
}

/**
 * The raw HTTP answer to a request Node could not even parse (Fastify's clientErrorHandler):
 * bad syntax → 400 MALFORMED_REQUEST, oversized headers → 431, timeout → 408.
 */
export function clientErrorResponse(
  error: { code?: string; rawPacket?: unknown },
  options: ErrorResponseOptions = {},
): string {
  const [status, code, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? ([431, 'HEADERS_TOO_LARGE', 'The request headers are too large.'] as const)
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? ([408, 'REQUEST_TIMEOUT', 'The request took too long to arrive.'] as const)
        : ([400, 'MALFORMED_REQUEST', 'The request is not valid HTTP.'] as const);
  // The request line, when Node got that far: an /api/v1 request gets its problem+json shape.
  const line = Buffer.isBuffer(error.rawPacket) ? error.rawPacket.subarray(0, 8192).toString('latin1') : '';
  // (The path only: the rest of an oversized request line may be past what is looked at.)
  const [, method, path = '/'] = /^([A-Z]+) (\/[^\s?#]*)/.exec(line) ?? [];
  const response = toErrorResponse(
    new HttpEdgeError(status, message, code),
    { method: method ?? 'GET', path, url: path },
    options,
  );
  const body = JSON.stringify(response.body);
  const contentType = response.headers['content-type'] ?? 'application/json; charset=utf-8';
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: ${contentType}\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  );
}

export function isProblemPath(path: string, prefixes: readonly string[] = PROBLEM_JSON_PREFIXES): boolean {
  return prefixes.some((p) => path === p || path.startsWith(`${p}/`));
}

/**
 * Builds status, body and headers; on problem paths adds RFC 9457 `type`, `title`, `status`,
 * then lets `options.enrich` add its fields. `request.url` (path and query) and `request.raw`
 * (the framework's request) are only read by the enricher.
 */
export function toErrorResponse(
  exception: unknown,
  request: { method?: string; path: string; url?: string; raw?: unknown },
  options: ErrorResponseOptions = {},
): ErrorResponse {
  const mapped = toHttpError(exception, request);
  const { unexpected } = mapped;
  let { error } = mapped;
  if (error.code === 'ROUTE_NOT_FOUND' && options.allowedMethods) {
    const allow = options.allowedMethods(request.path);
    if (allow.length) error = methodNotAllowed(request.method ?? 'GET', request.path, allow);
  }
  let body = httpErrorBody(error);
  const headers: Record<string, string> = { ...error.headers };
  let enrichFailure: unknown;
  if (isProblemPath(request.path, options.problemPrefixes)) {
    body = {
      type: `${options.problemTypeBase ?? ''}/api/v1/agents/errors#${error.code}`,
      title: STATUS_CODES[error.status] ?? 'Error',
      status: error.status,
      ...body,
    };
    headers['content-type'] = 'application/problem+json; charset=utf-8';
    if (options.enrich) {
      // On a copy: an enricher that throws halfway leaves the documented body as it was (the
      // caller logs the failure).
      const enriched = { ...body };
      try {
        options.enrich(enriched, {
          method: request.method ?? 'GET',
          path: request.path,
          url: request.url ?? request.path,
          status: error.status,
          headers,
          request: request.raw,
        });
        body = enriched;
      } catch (failure) {
        enrichFailure = failure;
      }
    }
  } else {
    headers['content-type'] = 'application/json; charset=utf-8';
  }
  return { status: error.status, body, headers, unexpected, ...(enrichFailure === undefined ? {} : { enrichFailure }) };
}
