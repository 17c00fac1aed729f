import { z } from 'zod';
import { hostList, int, invalid, trustedProxies, url } from './config-fields.js';

/** The HTTP server, its public address and who may call it from where. */
export const httpEnv = z.object({
  PORT: int(3000, 0, 65535),
  HOST: z.string().min(1).default('0.0.0.0'),
  SVC_PUBLIC_URL: url(['http', 'https']).optional(),
  /** Without SVC_PUBLIC_URL (test mode only), the Host names links may be built from. */
  SVC_ALLOWED_HOSTS: hostList.optional(),
  /** Where people and registries write about the service (the public descriptors and legal page). */
  SVC_CONTACT_EMAIL: z.email({ message: 'expected an email address' }).optional(),
  /** Mail for password reset links (smtp://user:pass@host:port, smtps:// for TLS); unset = no mail. */
  SVC_SMTP_URL: url(['smtp', 'smtps']).optional(),
  SVC_SMTP_FROM: z.email({ message: 'expected an email address' }).optional(),
  /** HTTP server limits: a request must arrive whole, and its headers, within these. */
  SVC_HTTP_REQUEST_TIMEOUT_MS: int(30_000, 1000, 600_000),
  SVC_HTTP_HEADERS_TIMEOUT_MS: int(10_000, 100, 600_000),
  /**
   * An idle keep-alive connection is closed after this (advertised as `Keep-Alive: timeout=N`).
   * Longer than the 60–75 s proxies and client pools keep theirs, as Fastify's own default: a
   * client that closes later than the server writes into a closed socket (ADR 0077).
   */
  SVC_HTTP_KEEP_ALIVE_TIMEOUT_MS: int(72_000, 100, 600_000),
  /** A connection with no traffic at all is closed after this. */
  SVC_HTTP_IDLE_TIMEOUT_MS: int(60_000, 1000, 3_600_000),
  /** Proxies whose X-Forwarded-For is believed: a hop count, or addresses/CIDRs comma-separated. */
  SVC_TRUSTED_PROXIES: trustedProxies.optional(),
});

export interface HttpServerLimits {
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  keepAliveTimeoutMs: number;
  idleTimeoutMs: number;
  /** Bytes of request line and headers at most (Node's default, stated). */
  maxHeaderBytes: number;
}

export interface HttpConfig {
  port: number;
  host: string;
  publicUrl?: string;
  /** SVC_ALLOWED_HOSTS: Host names trusted for links when publicUrl is unset (test mode only). */
  allowedHosts: string[];
  /** SVC_CONTACT_EMAIL: the contact the public descriptors name; unset = a placeholder. */
  contactEmail?: string;
  /** SVC_SMTP_URL / SVC_SMTP_FROM: where password reset mails go out; unset = no mail (the CLI issues links). */
  smtp?: { url: string; from: string };
  /** The HTTP server's limits (slow or idle clients are cut off). */
  http: HttpServerLimits;
  /** SVC_TRUSTED_PROXIES: whose X-Forwarded-For gives the client address; unset = the socket's. */
  trustedProxies?: number | string[];
}

export function httpConfig(c: z.infer<typeof httpEnv>, env: 'test' | 'live'): HttpConfig {
  if (env === 'live' && !c.SVC_PUBLIC_URL)
    throw invalid(
      'SVC_PUBLIC_URL',
      '""',
      "SVC_ENV=live needs the public base URL (checkout return links and descriptors must never be built from a request's Host header)",
    );
  if (c.SVC_HTTP_HEADERS_TIMEOUT_MS > c.SVC_HTTP_REQUEST_TIMEOUT_MS)
    throw invalid(
      'SVC_HTTP_HEADERS_TIMEOUT_MS',
      JSON.stringify(String(c.SVC_HTTP_HEADERS_TIMEOUT_MS)),
      `expected at most SVC_HTTP_REQUEST_TIMEOUT_MS (${c.SVC_HTTP_REQUEST_TIMEOUT_MS})`,
    );
  return {
    port: c.PORT,
    host: c.HOST,
    publicUrl: c.SVC_PUBLIC_URL?.replace(/\/+$/, ''),
    allowedHosts: c.SVC_ALLOWED_HOSTS ?? defaultAllowedHosts(c.HOST),
    contactEmail: c.SVC_CONTACT_EMAIL,
    ...(c.SVC_SMTP_URL ? { smtp: { url: c.SVC_SMTP_URL, from: c.SVC_SMTP_FROM ?? 'no-reply@localhost' } } : {}),
    http: {
      requestTimeoutMs: c.SVC_HTTP_REQUEST_TIMEOUT_MS,
      headersTimeoutMs: c.SVC_HTTP_HEADERS_TIMEOUT_MS,
      keepAliveTimeoutMs: c.SVC_HTTP_KEEP_ALIVE_TIMEOUT_MS,
      idleTimeoutMs: c.SVC_HTTP_IDLE_TIMEOUT_MS,
      maxHeaderBytes: 16_384,
    },
    trustedProxies: c.SVC_TRUSTED_PROXIES,
  };
}

/** Loopback names, and the listening address when it is one (not a wildcard). */
export function defaultAllowedHosts(listenHost: string): string[] {
  const hosts = ['localhost', '127.0.0.1', '::1'];
  const own = listenHost.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (own !== '0.0.0.0' && own !== '::' && !hosts.includes(own)) hosts.push(own);
  return hosts;
}
