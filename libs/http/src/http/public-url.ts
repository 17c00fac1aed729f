import type { AppConfig } from '#kernel';

/** What publicBaseUrl reads from a request (Fastify's request has all three). */
export interface RequestOrigin {
  protocol?: string;
  host?: string;
  headers?: Record<string, string | string[] | undefined>;
}

/** The names a Host header gives this machine. */
export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '::1'];

/**
 * The host name of a Host header, lower case, an IPv6 address without its brackets; undefined
 * for anything but `host[:port]` (which would smuggle a path into links).
 */
export function hostNameOf(host: string | undefined): string | undefined {
  const m = host ? /^([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(:\d{1,5})?$/.exec(host) : null;
  return m?.[1]?.toLowerCase().replace(/^\[(.*)\]$/, '$1');
}

/** The Host a request was sent to (Fastify's `host`: X-Forwarded-Host only from a trusted proxy). */
export function requestHost(request: RequestOrigin | undefined): string | undefined {
  const header = request?.headers?.host;
  return request?.host || (Array.isArray(header) ? header[0] : header);
}

/**
 * The absolute base URL (no trailing slash) for links the service returns: SVC_PUBLIC_URL when
 * set (required in live mode), else the request's protocol and Host header if that host is in
 * SVC_ALLOWED_HOSTS (default: loopback names and the listening address), else localhost. A Host
 * header is client input: a forged one must not send a checkout's return link, with its
 * one-time key, to another site. Forwarded headers are not trusted: behind a proxy, set
 * SVC_PUBLIC_URL.
 */
export function publicBaseUrl(
  request: RequestOrigin | undefined,
  config: Pick<AppConfig, 'publicUrl'> & Partial<Pick<AppConfig, 'allowedHosts' | 'port'>>,
): string {
  if (config.publicUrl) return config.publicUrl;
  const candidate = requestHost(request);
  const protocol = request?.protocol === 'https' ? 'https' : 'http';
  const name = hostNameOf(candidate);
  if (name !== undefined && (config.allowedHosts ?? LOOPBACK_HOSTS).includes(name)) return `${protocol}://${candidate}`;
  return `http://localhost${config.port ? `:${config.port}` : ''}`;
}
