import { isIP } from 'node:net';
import { nonPublicReason } from '../sending/address-guard.js';

export interface WebhookUrlPolicy {
  /** SVC_ENV=live (D14). */
  requireHttps: boolean;
  /** SVC_WEBHOOK_ALLOW_PRIVATE (D14). */
  allowPrivate: boolean;
}

export const MAX_URL_LENGTH = 2048;

/**
 * Why a webhook URL is refused at creation or update, or null. What can be known without DNS is
 * refused here (scheme, https in live, credentials, IP literals and `localhost` that are not
 * public); names are checked again on every connection (guarded-lookup.ts), since what they
 * resolve to can change.
 */
export function webhookUrlProblem(url: string, policy: WebhookUrlPolicy): string | null {
  if (url.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'must be an absolute http or https URL';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'must be an http or https URL';
  if (policy.requireHttps && parsed.protocol !== 'https:') return 'must be an https URL on a live deployment';
  if (parsed.username || parsed.password) return 'must not carry credentials (user:password@)';
  if (!parsed.hostname) return 'must name a host';
  if (!policy.allowPrivate) {
    const host = parsed.hostname.startsWith('[') ? parsed.hostname.slice(1, -1) : parsed.hostname;
    if (isIP(host)) {
      const reason = nonPublicReason(host);
      if (reason) return `must point to a public address (${host} is ${reason})`;
    } else if (host === 'localhost' || host.endsWith('.localhost')) {
      return 'must point to a public address (localhost is loopback)';
    }
  }
  return null;
}

/** D13: at least 16 bytes, so it cannot be guessed; at most 1024 characters. */
export const MIN_SECRET_BYTES = 16;
export const MAX_SECRET_LENGTH = 1024;

export function secretProblem(secret: string): string | null {
  if (Buffer.byteLength(secret, 'utf8') < MIN_SECRET_BYTES) return `must be at least ${MIN_SECRET_BYTES} bytes`;
  if (secret.length > MAX_SECRET_LENGTH) return `must be at most ${MAX_SECRET_LENGTH} characters`;
  return null;
}
