import { type ArgumentsHost, Catch, type ExceptionFilter, Logger } from '@nestjs/common';
import { type ErrorResponseOptions, PROBLEM_JSON_PREFIXES, toErrorResponse } from './error-response.js';

/**
 * `problemPrefixes` (default `/api/v1`), `problemTypeBase`, `enrich`, the hook that adds a
 * product's fields to problem+json bodies (see ProblemEnricher), and `allowedMethods` (405s).
 */
export type AllExceptionsFilterOptions = ErrorResponseOptions;

/**
 * Thrown by a guard that answered the request itself (e.g. a free `HEAD` preflight that must
 * not run the handler): sent as is, with no body. Not an error.
 */
export class GuardAnswered extends Error {
  constructor(
    readonly status: number,
    readonly headers: Record<string, string>,
  ) {
    super('answered by a guard');
    this.name = 'GuardAnswered';
  }
}

interface AnyRequest {
  id?: string;
  method?: string;
  url?: string;
  originalUrl?: string;
}

interface AnyReply {
  sent?: boolean;
  headersSent?: boolean;
  raw?: { headersSent?: boolean };
  code?: (status: number) => AnyReply;
  headers?: (h: Record<string, string>) => AnyReply;
  send?: (body: string) => unknown;
  statusCode?: number;
  setHeader?: (name: string, value: string) => void;
  end?: (body?: string) => void;
}

/**
 * The one place every error of an HTTP request becomes the documented body (DESIGN D5).
 * Registered globally; Fastify's parser and not-found errors reach it through Nest's
 * error and not-found handlers. It never rethrows, so no input can crash the process.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpError');

  constructor(private readonly options: AllExceptionsFilterOptions = {}) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw exception;
    const http = host.switchToHttp();
    const request = http.getRequest<AnyRequest>();
    const reply = http.getResponse<AnyReply>();
    try {
      if (exception instanceof GuardAnswered) {
        send(reply, exception.status, exception.headers, '');
        return;
      }
      const url = request?.originalUrl ?? request?.url ?? '/';
      const path = url.split('?')[0] ?? '/';
      const response = toErrorResponse(
        exception,
        { method: request?.method, path, url, raw: request },
        {
          problemPrefixes: this.options.problemPrefixes ?? PROBLEM_JSON_PREFIXES,
          problemTypeBase: this.options.problemTypeBase,
          enrich: this.options.enrich,
          allowedMethods: this.options.allowedMethods,
        },
      );
      if (response.unexpected) {
        const stack = exception instanceof Error ? (exception.stack ?? exception.message) : String(exception);
        this.logger.error(`${request?.method ?? '?'} ${path} failed (request ${request?.id ?? '?'}): ${stack}`);
      }
      if (response.enrichFailure !== undefined) {
        const failure = response.enrichFailure;
        this.logger.error(
          `problem enricher failed on ${request?.method ?? '?'} ${path} (request ${request?.id ?? '?'}): ${failure instanceof Error ? (failure.stack ?? failure.message) : String(failure)}`,
        );
      }
      send(reply, response.status, response.headers, JSON.stringify(response.body));
    } catch (failure) {
      // Last resort: a bug here must still answer (and never throw into Fastify).
      this.logger.error(`exception filter failed: ${failure instanceof Error ? failure.stack : String(failure)}`);
      try {
        send(
          reply,
          500,
          { 'content-type': 'application/json; charset=utf-8' },
          '{"error":"internal_error","message":"An unexpected error occurred.","code":"INTERNAL_ERROR"}',
        );
      } catch {
        /* the connection is gone */
      }
    }
  }
}

function send(reply: AnyReply, status: number, headers: Record<string, string>, body: string): void {
  const headersSent = reply.sent === true || reply.headersSent === true || reply.raw?.headersSent === true;
  if (headersSent) {
    // The response started already: nothing consistent can be sent any more.
    const raw = (reply.raw ?? reply) as { destroy?: () => void; end?: () => void };
    raw.end?.();
    return;
  }
  if (typeof reply.code === 'function' && typeof reply.send === 'function') {
    reply.code(status);
    reply.headers?.(headers);
    reply.send(body);
    return;
  }
  // A raw Node response (middleware errors on some paths).
  reply.statusCode = status;
  for (const [k, v] of Object.entries(headers)) reply.setHeader?.(k, v);
  reply.end?.(body);
}
