import type { RequestOrigin } from '#http';

/** What billing routes read of a request. */
export type BillingRequest = RequestOrigin & { headers: Record<string, string | string[] | undefined> };

/** The agent surface's credentials, for OpenAPI. */
export const AUTH = ['apiKey', 'bearer'] as Array<'apiKey' | 'bearer'>;

/** Billing links answer a page (a redirect, the checkout page) unless the client lists JSON first. */
export const JSON_OVER_PAGE = { over: 'text/html' };
