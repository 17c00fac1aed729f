import type { AppConfig } from '#kernel';

/** What publicBaseUrl reads from a request (Fastify's request has all three). */
export interface RequestOrigin {
  protocol?: string;
  host?: string;
  headers?: Record<string, string | string[] | undefined>;
}

const LOOPBACK = ['localhost', '127.0.0.1', '::1'];

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
  const header = request?.headers?.host;
  const candidate = request?.host || (Array.isArray(header) ? header[0] : header);
  const protocol = request?.protocol === 'https' ? 'https' : 'http';
  // Anything but host[:port] would smuggle a path into links.
  const m = candidate ? /^([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(:\d{1,5})?$/.exec(candidate) : null;
  const name = m?.[1]?.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (m && name !== undefined && (config.allowedHosts ?? LOOPBACK).includes(name)) return `${protocol}://${candidate}`;
  return `http://localhost${config.port ? `:${config.port}` : ''}`;
}
