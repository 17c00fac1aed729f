import type { AppConfig } from '#kernel';

/** What publicBaseUrl reads from a request (Fastify's request has all three). */
export interface RequestOrigin {
  protocol?: string;
  host?: string;
  headers?: Record<string, string | string[] | undefined>;
}

/**
 * The absolute base URL (no trailing slash) for links the service returns: SVC_PUBLIC_URL when
 * set, else the request's protocol and Host header. Forwarded headers are not trusted: behind a
 * proxy, set SVC_PUBLIC_URL.
 */
export function publicBaseUrl(request: RequestOrigin | undefined, config: Pick<AppConfig, 'publicUrl'>): string {
  if (config.publicUrl) return config.publicUrl;
  const header = request?.headers?.host;
  const candidate = request?.host || (Array.isArray(header) ? header[0] : header);
  // A Host header is client input: anything but a host[:port] would smuggle a path into links.
  const host = candidate && /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(candidate) ? candidate : 'localhost';
  const protocol = request?.protocol === 'https' ? 'https' : 'http';
  return `${protocol}://${host}`;
}
