import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import type { Logger } from 'pino';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The request id of a request: a sane incoming `x-request-id`, else a fresh UUID. Given to
 * Fastify as `genReqId`, so Fastify (`request.id`, the `reqId` of its request logger), the
 * request log line and the `x-request-id` response header agree.
 */
export function requestId(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
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
 * finished: `{reqId, req: {method, url, headers, remoteAddress, remotePort}, res: {statusCode,
 * headers}, responseTime, msg: "request completed"}` at a level by status. Fastify's "incoming
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
