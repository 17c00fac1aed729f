import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type DynamicModule, Module, RequestMethod } from '@nestjs/common';
import { LoggerModule, type Params } from 'nestjs-pino';
import pino from 'pino';
import type { AppConfig } from '../config/config.js';

export interface LoggingOptions {
  /** Where log lines go: stdout for servers, stderr for the CLI (its stdout is data). */
  destination?: 'stdout' | 'stderr';
  /** Overrides config.logLevel (the CLI is quieter by default). */
  level?: AppConfig['logLevel'];
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The request id of a request: a sane incoming `x-request-id`, else a fresh UUID. Given to
 * Fastify as `genReqId`, so Fastify, pino-http (which reuses `req.id`) and the response header
 * agree.
 */
export function requestId(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** pino-http settings: level, redacted credentials, status-dependent levels. */
export function loggerParams(config: Pick<AppConfig, 'logLevel'>, options: LoggingOptions = {}): Params {
  const httpOptions = {
    level: options.level ?? config.logLevel,
    // Credentials never reach the log, whatever the level.
    redact: {
      paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie', 'res.headers["set-cookie"]'],
      censor: '[redacted]',
    },
    customLogLevel(_req: IncomingMessage, res: ServerResponse, error?: Error) {
      if (error || res.statusCode >= 500) return 'error' as const;
      if (res.statusCode >= 400) return 'warn' as const;
      return 'info' as const;
    },
  };
  const destination = pino.destination({ dest: options.destination === 'stderr' ? 2 : 1, sync: true });
  return {
    pinoHttp: [httpOptions, destination],
    // nestjs-pino's default route (`{/*splat}`) matches only `/` under this Nest version's
    // Fastify adapter; `{*splat}` matches every request, unknown routes included.
    forRoutes: [{ path: '{*splat}', method: RequestMethod.ALL }],
  };
}

/** Structured logging for every app (nestjs-pino): `app.useLogger(app.get(Logger))` after create. */
@Module({})
export class LoggingModule {
  static forRoot(config: Pick<AppConfig, 'logLevel'>, options: LoggingOptions = {}): DynamicModule {
    return { module: LoggingModule, imports: [LoggerModule.forRoot(loggerParams(config, options))], exports: [LoggerModule] };
  }
}
