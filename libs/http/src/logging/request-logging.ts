import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import type { Logger } from 'pino';

const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The request id of a request: always a fresh UUID of the server's own. Given to Fastify as
 * `genReqId`, so Fastify (`request.id`, the `reqId` of its request logger), the request log
 * line, the `x-request-id` response header and what is recorded for the request (a ledger
 * charge's `request_id`) agree. A client's `x-request-id` never becomes it: records would
 * otherwise carry whatever the client chose (ADR 0073).
 */
export function requestId(): string {
  return randomUUID();
}

/**
 * The client's own `x-request-id`, when sane (1 to 128 of `A-Z a-z 0-9 . _ : -`); undefined
 * otherwise. Logged beside the server's id as `clientRequestId`, so a client's trace can be found.
 */
export function clientRequestId(headers: IncomingMessage['headers'] | undefined): string | undefined {
  const incoming = headers?.['x-request-id'];
  return typeof incoming === 'string' && CLIENT_REQUEST_ID.test(incoming) ? incoming : undefined;
}

type Level = 'info' | 'warn' | 'error';

/** 5xx (or a response that failed) → error, 4xx → warn, else info. */
export function requestLogLevel(statusCode: number, failed: boolean): Level {
  if (failed || statusCode >= 500) return 'error';
  if (statusCode >= 400) return 'warn';
  return 'info';
}

/**
 * Fastify's request logging, reduced to ONE line per request, written when the response is
 * finished: `{reqId, clientRequestId?, req: {method, url, headers, remoteAddress, remotePort},
 * res: {statusCode, headers}, responseTime, msg: "request completed"}` at a level by status. Fastify's "incoming
 * request" line is dropped. The level is checked first: at a disabled level nothing is built.
 */
export class RequestLogController extends LogController {
  constructor(private readonly root: Pick<Logger, 'isLevelEnabled'>) {
    super({ disableRequestLogging: false });
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const level = requestLogLevel(reply.statusCode, Boolean(error));
    if (!this.root.isLevelEnabled(level)) return;
    const line: Record<string, unknown> = { req: request, res: reply, responseTime: reply.elapsedTime };
    const clientId = clientRequestId(request.headers);
    if (clientId !== undefined) line.clientRequestId = clientId;
    if (error) line.err = error;
    reply.log[level](line, 'request completed');
  }
}

/**
 * The Fastify options that make Fastify log requests through the app's pino logger. At
 * `silent` Fastify gets no logger at all, so no child logger is made per request.
 */
export function fastifyLoggingOptions(logger: Logger) {
  return {
    ...(logger.isLevelEnabled('fatal') ? { loggerInstance: logger } : {}),
    logController: new RequestLogController(logger),
    // One request id for Fastify, the logs and the `x-request-id` response header.
    genReqId: requestId,
    requestIdHeader: false as const,
  };
}
