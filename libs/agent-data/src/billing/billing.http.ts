import type { RequestOrigin } from '#http';

/** What billing routes read of a request. */
export type BillingRequest = RequestOrigin & { headers: Record<string, string | string[] | undefined> };

/** The agent surface's credentials, for OpenAPI. */
export const AUTH = ['apiKey', 'bearer'] as Array<'apiKey' | 'bearer'>;

/** True when the client asks for JSON rather than a page (agents), by the Accept header. */
export function prefersJson(accept: string | string[] | undefined): boolean {
  const value = (Array.isArray(accept) ? accept.join(',') : (accept ?? '')).toLowerCase();
  if (!value.includes('json')) return false;
  return !value.includes('text/html') || value.indexOf('json') < value.indexOf('text/html');
}
