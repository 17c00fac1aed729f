import http from 'node:http';
import https from 'node:https';
import { isIP, type Socket } from 'node:net';
import type { AttemptOutcome } from '../engine/delivery.decider.js';
import { BlockedAddressError, nonPublicReason } from './address-guard.js';
import { guardedLookup, type Resolver, systemResolver } from './guarded-lookup.js';

export interface WebhookSenderOptions {
  /** SVC_WEBHOOK_ALLOW_PRIVATE: lift the D14 guard (local use, tests). */
  allowPrivate: boolean;
  /** D12: a 2xx must arrive within this (10 s). */
  timeoutMs: number;
  /** Kept-alive connections per target host (the dispatcher bounds requests per host too). */
  maxSocketsPerHost?: number;
  resolver?: Resolver;
  userAgent?: string;
}

export interface SendRequest {
  url: string;
  /** The exact bytes to POST (the bytes signed). */
  body: Buffer;
  /** Extra headers (signature, event, delivery); Content-Type, Content-Length and User-Agent are set here. */
  headers: Record<string, string>;
}

/** The first 2 KiB of an answer are kept (Recent deliveries show the first 2 KB). */
export const RESPONSE_BODY_LIMIT = 2048;
/** A response body is read up to this to keep the connection; past it the socket is dropped. */
const DRAIN_LIMIT = 64 * 1024;

class DeliveryTimeoutError extends Error {
  readonly code = 'ETIMEDOUT_DELIVERY';
  constructor(
    /** The socket had not connected: not one byte of this try left. */
    readonly beforeConnect: boolean,
    /** The second try, after a reused socket was reset: the first try's bytes did leave. */
    readonly afterReset: boolean,
  ) {
    super(beforeConnect ? 'not connected in time' : 'no response in time');
  }
}

/**
 * POSTs one delivery (D12–D14): no redirects followed (node:http never follows), success only
 * for a 2xx within `timeoutMs`, the first 2 KiB of the answer kept, the SSRF guard applied to
 * the address actually connected to (IP literals before connecting, names in the socket's
 * lookup, and the connected peer once more as a backstop). Never throws: every failure is an
 * outcome. Logs nothing (URLs may carry tokens; the caller logs ids).
 */
export class WebhookSender {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;
  private readonly lookup: ReturnType<typeof guardedLookup>;
  readonly userAgent: string;

  constructor(private readonly options: WebhookSenderOptions) {
    const perHost = options.maxSocketsPerHost ?? 16;
    this.httpAgent = new http.Agent({
      keepAlive: true,
      maxSockets: perHost,
      maxFreeSockets: perHost,
      scheduling: 'lifo',
    });
    this.httpsAgent = new https.Agent({
      keepAlive: true,
      maxSockets: perHost,
      maxFreeSockets: perHost,
      scheduling: 'lifo',
    });
    this.lookup = guardedLookup(options.resolver ?? systemResolver, options.allowPrivate);
    this.userAgent = options.userAgent ?? 'svc-webhooks/1.0';
  }

  async send(request: SendRequest): Promise<AttemptOutcome> {
    const started = performance.now();
    const failed = (error: string): AttemptOutcome => ({
      statusCode: null,
      durationMs: performance.now() - started,
      error,
      responseBody: null,
      succeeded: false,
    });
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return failed('invalid_url');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return failed('unsupported_scheme');
    if (url.username || url.password) return failed('invalid_url: credentials in the URL');
    const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    // Sockets skip `lookup` for IP literals: check those here, before any packet is sent.
    if (isIP(hostname) && !this.options.allowPrivate) {
      const reason = nonPublicReason(hostname);
      if (reason)
        return failed(describeError(new BlockedAddressError(hostname, hostname, reason), this.options.timeoutMs));
    }
    const deadline = started + this.options.timeoutMs;
    let outcome = await this.attempt(url, hostname, request, started, deadline);
    if (outcome === 'retry') outcome = await this.attempt(url, hostname, request, started, deadline, false);
    return outcome === 'retry' ? failed('connection_reset') : outcome;
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  private attempt(
    url: URL,
    hostname: string,
    request: SendRequest,
    started: number,
    deadline: number,
    mayRetry = true,
  ): Promise<AttemptOutcome | 'retry'> {
    return new Promise((resolve) => {
      const secure = url.protocol === 'https:';
      let status: number | null = null;
      let connected = false;
      let settled = false;
      const kept: Buffer[] = [];
      let keptBytes = 0;
      let readBytes = 0;
      const finish = (error: string | null) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        const responseBody =
          keptBytes > 0 ? Buffer.concat(kept).subarray(0, RESPONSE_BODY_LIMIT).toString('utf8') : null;
        const ok = status !== null && status >= 200 && status < 300;
        resolve({
          statusCode: status,
          durationMs: performance.now() - started,
          error: ok
            ? null
            : (error ?? (status !== null && status >= 300 && status < 400 ? 'redirect_not_followed' : null)),
          responseBody,
          succeeded: ok && error === null,
        });
      };
      const options: https.RequestOptions = {
        protocol: url.protocol,
        hostname,
        port: url.port || (secure ? 443 : 80),
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        agent: secure ? this.httpsAgent : this.httpAgent,
        lookup: this.lookup as unknown as https.RequestOptions['lookup'],
        headers: {
          ...request.headers,
          'Content-Type': 'application/json',
          'Content-Length': String(request.body.length),
          'User-Agent': this.userAgent,
        },
      };
      const req = (secure ? https : http).request(options, (res) => {
        status = res.statusCode ?? null;
        res.on('data', (chunk: Buffer) => {
          readBytes += chunk.length;
          if (keptBytes < RESPONSE_BODY_LIMIT) {
            kept.push(chunk);
            keptBytes += chunk.length;
          }
          if (readBytes > DRAIN_LIMIT) {
            res.destroy();
            finish(null);
          }
        });
        res.on('end', () => finish(null));
        // The answer's status arrived in time; a body cut short does not change it.
        res.on('error', () => finish(null));
        res.on('aborted', () => finish(null));
        res.on('close', () => finish(null));
      });
      const timer = setTimeout(
        () => {
          if (status !== null) {
            // Status in time, body still trickling: the outcome is known, drop the connection.
            finish(null);
            req.destroy();
          } else req.destroy(new DeliveryTimeoutError(!connected, !mayRetry));
        },
        Math.max(0, deadline - performance.now()),
      );
      // A timeout before the connection was made is told apart: that request never left (a process
      // held up past its deadline fires the timer before it handles the connect).
      req.on('socket', (socket: Socket) => {
        if (!socket.connecting) connected = true;
        else socket.once('connect', () => (connected = true));
      });
      if (!this.options.allowPrivate) {
        // Backstop: the peer actually connected to (a fresh socket) must be public too. A reused
        // socket was checked when it connected (and would keep a listener per reuse).
        req.on('socket', (socket: Socket) => {
          if (!socket.connecting) return;
          socket.once('connect', () => {
            const peer = socket.remoteAddress;
            const reason = peer ? nonPublicReason(peer) : null;
            if (peer && reason) req.destroy(new BlockedAddressError(hostname, peer, reason));
          });
        });
      }
      req.on('error', (error: NodeJS.ErrnoException) => {
        if (settled) return;
        // A kept-alive socket the server closed just as we reused it: once more on a fresh one.
        if (mayRetry && req.reusedSocket && error.code === 'ECONNRESET' && status === null) {
          settled = true;
          clearTimeout(timer);
          resolve('retry');
          return;
        }
        if (status !== null) finish(null);
        else finish(describeError(error, this.options.timeoutMs));
      });
      req.end(request.body);
    });
  }
}

function describeError(error: NodeJS.ErrnoException, timeoutMs: number): string {
  if (error instanceof BlockedAddressError) return `blocked_address: ${error.message}`;
  if (error instanceof DeliveryTimeoutError) {
    if (!error.beforeConnect) return `timeout: no response within ${timeoutMs} ms`;
    // Nothing of this request reached the receiver, unless a first try did before its reset.
    return `timeout: not connected within ${timeoutMs} ms (${error.afterReset ? 'after a connection reset' : 'nothing sent'})`;
  }
  const code = error.code ?? '';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NODATA') return `dns_error: ${code}`;
  if (code === 'ECONNREFUSED') return 'connection_refused';
  if (code === 'ECONNRESET' || code === 'EPIPE') return 'connection_reset';
  if (code === 'ETIMEDOUT' || code === 'ENETUNREACH' || code === 'EHOSTUNREACH') return `connection_error: ${code}`;
  if (code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL') || /CERT|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code))
    return `tls_error: ${code}`;
  return `connection_error: ${code || error.message}`;
}
