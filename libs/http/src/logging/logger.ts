import type { IncomingMessage } from 'node:http';
import { Injectable, type LoggerService } from '@nestjs/common';
import pino, { type Logger } from 'pino';
import type { AppConfig } from '#kernel';

export interface LoggingOptions {
  /** Where log lines go: stdout for servers, stderr for the CLI (its stdout is data). */
  destination?: 'stdout' | 'stderr';
  /** Overrides config.logLevel (the CLI is quieter by default). */
  level?: AppConfig['logLevel'];
  /** Lines go here instead (tests capture them). */
  stream?: pino.DestinationStream;
}

/** The app's one pino logger: application logs (AppLogger) and request logs (Fastify) share it. */
export const PINO_LOGGER = Symbol('PINO_LOGGER');

/**
 * Headers whose values never reach the log, whatever the level: credentials by name, and any
 * header whose name says it carries one (an `Idempotency-Key` replays a first answer that holds
 * an API key; signatures, tokens, secrets and cookies are credentials or derived from them).
 */
const SECRET_HEADER = /authorization|key|token|secret|signature|cookie/i;
const CENSOR = '[redacted]';

/** Headers whose value is a URL: its credential parameters are redacted (an OAuth redirect's `code`). */
const URL_HEADER = /^(location|content-location|referer|refresh)$/i;

/**
 * Query (and fragment) parameters whose values never reach the log: the names that say they
 * carry a credential, as for headers, plus OAuth's `code` and `code_verifier`.
 */
const SECRET_PARAM = /secret|token|password|passwd|key|signature|credential|^code$|^code_verifier$/i;
// A value ends at the next `?` too, so a parameter nested in an unencoded URL value is seen.
const URL_PARAM = /([?&#])([^=&#?]*)=([^&#?]*)/g;

function paramName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

/** The URL with the value of every credential-bearing query or fragment parameter replaced; the rest as sent. */
export function redactUrl(url: string): string {
  if (!url.includes('?') && !url.includes('#')) return url;
  return url.replace(URL_PARAM, (whole, separator: string, name: string) =>
    SECRET_PARAM.test(paramName(name)) ? `${separator}${name}=${CENSOR}` : whole,
  );
}

/**
 * A copy of the headers with every credential-bearing value replaced, and the credential
 * parameters of URL-valued headers (Location, Referer) too; the rest kept as sent.
 */
export function redactHeaders<H extends Record<string, unknown>>(headers: H | undefined): H | undefined {
  if (!headers) return headers;
  let copy: Record<string, unknown> | undefined;
  for (const name of Object.keys(headers)) {
    if (SECRET_HEADER.test(name)) {
      copy ??= { ...headers };
      copy[name] = CENSOR;
    } else if (URL_HEADER.test(name)) {
      const value = headers[name];
      const redacted = typeof value === 'string' ? redactUrl(value) : value;
      if (redacted === value) continue;
      copy ??= { ...headers };
      copy[name] = redacted;
    }
  }
  return (copy ?? headers) as H;
}

interface RequestLike {
  method?: string;
  url?: string;
  headers?: IncomingMessage['headers'];
  ip?: string;
  socket?: { remotePort?: number };
  raw?: IncomingMessage;
}

interface ReplyLike {
  statusCode?: number;
  getHeaders?: () => Record<string, unknown>;
}

/**
 * Serialisers for the keys of request log lines. pino calls them only for a line it writes
 * (after the level check), so a disabled level costs nothing.
 */
export const LOG_SERIALIZERS = {
  req(req: RequestLike) {
    return {
      method: req.method,
      url: req.url === undefined ? undefined : redactUrl(req.url),
      headers: redactHeaders(req.headers),
      remoteAddress: req.ip ?? req.raw?.socket?.remoteAddress,
      remotePort: (req.socket ?? req.raw?.socket)?.remotePort,
    };
  },
  res(res: ReplyLike) {
    return {
      statusCode: res.statusCode,
      headers: typeof res.getHeaders === 'function' ? redactHeaders(res.getHeaders()) : undefined,
    };
  },
  err: pino.stdSerializers.err,
};

/**
 * The one pino instance of a process: JSON lines, synchronous writes to stdout (or stderr for the
 * CLI), credentials redacted by the serialisers. Made once per app and handed both to Fastify (request logs) and to
 * Nest (AppLogger).
 */
export function createLogger(config: Pick<AppConfig, 'logLevel'>, options: LoggingOptions = {}): Logger {
  const stream = options.stream ?? pino.destination({ dest: options.destination === 'stderr' ? 2 : 1, sync: true });
  return pino(
    {
      level: options.level ?? config.logLevel,
      serializers: LOG_SERIALIZERS,
    },
    stream,
  );
}

type PinoMethod = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';

/**
 * Nest's LoggerService over the app's pino instance (`app.useLogger(app.get(AppLogger))`). Lines
 * look like nestjs-pino's: `{level, time, pid, hostname, context, msg}`, an Error as `err`.
 */
@Injectable()
export class AppLogger implements LoggerService {
  constructor(readonly pino: Logger) {}

  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }

  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }

  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }

  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  private write(level: PinoMethod, message: unknown, params: unknown[]): void {
    if (!this.pino.isLevelEnabled(level)) return;
    const fields: Record<string, unknown> = {};
    // Nest passes the context (the logger's name) last.
    let rest = params;
    if (params.length > 0) {
      fields.context = params[params.length - 1];
      rest = params.slice(0, -1);
    }
    if (typeof message === 'object' && message !== null) {
      if (message instanceof Error) fields.err = message;
      else Object.assign(fields, message);
      this.pino[level](fields, ...(rest as [string?]));
    } else if (
      level === 'error' &&
      typeof message === 'string' &&
      rest.length === 1 &&
      typeof rest[0] === 'string' &&
      /\n\s*at /.test(rest[0])
    ) {
      // Nest's exception handlers call error(message, stack, context).
      const err = new Error(message);
      err.stack = rest[0];
      fields.err = err;
      this.pino[level](fields);
    } else {
      this.pino[level](fields, String(message), ...(rest as []));
    }
  }
}
