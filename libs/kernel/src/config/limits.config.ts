import { z } from 'zod';
import { int, originList } from './config-fields.js';

/** Request limits per client address, per key and per door (sign-in, signup, OAuth, MCP). */
export const limitsEnv = z.object({
  /** Anonymous writes (OWASP API4): accounts made per client address per hour, other writes per minute. */
  SVC_SIGNUP_LIMIT_PER_HOUR: int(30, 1, 1_000_000),
  SVC_ANONYMOUS_WRITE_LIMIT_PER_MINUTE: int(60, 1, 1_000_000),
  /** Sign-in attempts (POST /login) per client address per minute, apart from the writes above. */
  SVC_SIGN_IN_LIMIT_PER_MINUTE: int(30, 1, 1_000_000),
  /** All anonymous writes of all addresses together, per minute (a ceiling for spread-out floods). */
  SVC_ANONYMOUS_GLOBAL_LIMIT_PER_MINUTE: int(1200, 1, 100_000_000),
  /** POSTs to /oauth/token and /oauth/revoke per client address per minute (client secret guessing). */
  SVC_OAUTH_LIMIT_PER_MINUTE: int(300, 1, 1_000_000),
  /** Requests to /oauth/authorize[/:uid] and /oauth/interaction/… per client address per minute. */
  SVC_OAUTH_AUTHORIZE_LIMIT_PER_MINUTE: int(300, 1, 1_000_000),
  /** MCP messages without a key per client address per minute (each message of a batch counts). */
  SVC_MCP_ANONYMOUS_LIMIT_PER_MINUTE: int(300, 1, 1_000_000),
  /** JSON-RPC messages one MCP batch may hold (protocol versions before 2025-06-18 only). */
  SVC_MCP_MAX_BATCH: int(20, 1, 100),
  /** Browser origins besides SVC_PUBLIC_URL's that may call the MCP endpoint. */
  SVC_MCP_ALLOWED_ORIGINS: originList.optional(),
  /** D7: requests per minute allowed to one agent key on /api/v1. */
  SVC_AGENT_RATE_LIMIT_PER_MINUTE: int(600, 1, 1_000_000_000),
});

export interface McpLimits {
  /** SVC_MCP_ANONYMOUS_LIMIT_PER_MINUTE: messages without a key per client address per minute. */
  anonymousPerMinute: number;
  /** SVC_MCP_MAX_BATCH: messages in one JSON-RPC batch. */
  maxBatch: number;
  /** SVC_MCP_ALLOWED_ORIGINS: browser origins accepted besides the service's own. */
  allowedOrigins: string[];
}

export interface LimitsConfig {
  /** Limits on anonymous writes per client address (and all together), OWASP API4. */
  anonymousLimits: {
    signupsPerHour: number;
    writesPerMinute: number;
    signInsPerMinute: number;
    globalPerMinute: number;
  };
  /** SVC_OAUTH_LIMIT_PER_MINUTE: token and revocation requests per client address per minute. */
  oauthLimitPerMinute: number;
  /** SVC_OAUTH_AUTHORIZE_LIMIT_PER_MINUTE: authorization and consent requests per client address per minute. */
  oauthAuthorizeLimitPerMinute: number;
  /** The MCP endpoint's own limits (ADR 0074). */
  mcp: McpLimits;
  /** SVC_AGENT_RATE_LIMIT_PER_MINUTE (D7: 600). */
  agentRateLimitPerMinute: number;
}

export function limitsConfig(c: z.infer<typeof limitsEnv>): LimitsConfig {
  return {
    agentRateLimitPerMinute: c.SVC_AGENT_RATE_LIMIT_PER_MINUTE,
    anonymousLimits: {
      signupsPerHour: c.SVC_SIGNUP_LIMIT_PER_HOUR,
      writesPerMinute: c.SVC_ANONYMOUS_WRITE_LIMIT_PER_MINUTE,
      signInsPerMinute: c.SVC_SIGN_IN_LIMIT_PER_MINUTE,
      globalPerMinute: c.SVC_ANONYMOUS_GLOBAL_LIMIT_PER_MINUTE,
    },
    oauthLimitPerMinute: c.SVC_OAUTH_LIMIT_PER_MINUTE,
    oauthAuthorizeLimitPerMinute: c.SVC_OAUTH_AUTHORIZE_LIMIT_PER_MINUTE,
    mcp: {
      anonymousPerMinute: c.SVC_MCP_ANONYMOUS_LIMIT_PER_MINUTE,
      maxBatch: c.SVC_MCP_MAX_BATCH,
      allowedOrigins: c.SVC_MCP_ALLOWED_ORIGINS ?? [],
    },
  };
}
