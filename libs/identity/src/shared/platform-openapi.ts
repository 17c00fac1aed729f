import type { OperationResponse } from '#http';
import { z } from 'zod';

/** D7 headers, on every authenticated platform response. */
export const RATE_LIMIT_HEADERS: NonNullable<OperationResponse['headers']> = {
  'X-RateLimit-Limit': {
    description: 'Requests allowed in the window with the fewest requests left (60 s or 3600 s).',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Remaining': { description: 'Requests left in that window.', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'When that window resets, in Unix epoch seconds.', schema: { type: 'integer' } },
};

export const rateLimitedSchema = z
  .object({
    error: z.literal('rate_limit_exceeded'),
    message: z.string(),
    code: z.literal('RATE_LIMIT_EXCEEDED'),
    retry_after: z.number().int().describe('Seconds until the exhausted window resets.'),
  })
  .meta({ id: 'RateLimited' });

export const forbiddenSchema = z
  .object({
    error: z.literal('forbidden'),
    message: z.string(),
    code: z.literal('INSUFFICIENT_SCOPE'),
    required_scope: z.string(),
  })
  .meta({ id: 'InsufficientScope' });

/**
 * The 403 of an operation that refuses for reasons of its own besides a missing scope: each
 * code a D5 error body (`{error: "forbidden", message, code}`) named `id` in components.
 */
export function forbiddenResponse(description: string, codes: Record<string, string>): OperationResponse {
  const own = Object.entries(codes).map(([code, id]) =>
    z.object({ error: z.literal('forbidden'), message: z.string(), code: z.literal(code) }).meta({ id }),
  );
  return { description, schema: z.union([forbiddenSchema, ...own]), headers: RATE_LIMIT_HEADERS };
}

/** The 401, 403 and 429 answers every platform operation can give. */
export function platformErrorResponses(): Record<number, OperationResponse> {
  return {
    401: {
      description:
        'Missing or unusable credential: `MISSING_AUTH`, `INVALID_KEY` (malformed, bad checksum, unknown), `REVOKED_KEY`, `KEY_WRONG_SURFACE` (an agent-surface key), `KEY_WRONG_ENVIRONMENT` (a live key on a test deployment or the reverse), `INVALID_TOKEN` (an unknown or revoked OAuth access token), `EXPIRED_TOKEN`.',
      headers: {
        'WWW-Authenticate': {
          description: 'Bearer challenge (RFC 6750); `error="invalid_token"` when a token was sent but failed.',
        },
      },
    },
    403: {
      description: 'The credential lacks the scope the operation needs (D3).',
      schema: forbiddenSchema,
      headers: RATE_LIMIT_HEADERS,
    },
    429: {
      description: "The account's rate limit is exhausted (D7).",
      schema: rateLimitedSchema,
      headers: {
        'Retry-After': { description: 'Seconds until the window resets.', schema: { type: 'integer' } },
        ...RATE_LIMIT_HEADERS,
      },
    },
  };
}
