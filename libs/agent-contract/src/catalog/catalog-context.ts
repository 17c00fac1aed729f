/**
 * What every catalogue document is built from besides the fixed data: where the service is
 * reachable (absolute links), the effective meter prices, the deployment environment and its
 * configured limits.
 * The builders are pure functions of it, so HTTP, MCP and descriptor documents agree.
 */
import { AGENT_API_PREFIX, findEndpoint } from './agent-surface.js';
import type { MeterPrices } from './meters.js';
import type { Objective } from './objectives.js';
import type { PackId } from './packs.js';

export interface CatalogContext {
  /** Absolute origin without trailing slash, e.g. https://api.example.com (publicBaseUrl). */
  baseUrl: string;
  prices: MeterPrices;
  env: 'test' | 'live';
  /** Agent-surface requests per minute per key (SVC_AGENT_RATE_LIMIT_PER_MINUTE, D7). */
  rateLimitPerMinute: number;
  /** Autopay tops up when a charge leaves the balance under this (SVC_AUTOPAY_THRESHOLD_USD, D19). */
  autopayThresholdCents: number;
  /** SVC_CONTACT_EMAIL, named by the public descriptors; unset = a placeholder. */
  contactEmail?: string;
}

/** The agent API root: {baseUrl}/api/v1 (the spec's {agent_base_url}). */
export function agentBaseUrl(ctx: Pick<CatalogContext, 'baseUrl'>): string {
  return `${ctx.baseUrl}${AGENT_API_PREFIX}`;
}

/** Absolute address of a path under /api/v1. */
export function agentUrl(ctx: Pick<CatalogContext, 'baseUrl'>, path: string): string {
  return `${agentBaseUrl(ctx)}${path}`;
}

/** Absolute address of a named agent endpoint (AGENT_ENDPOINTS). */
export function endpointUrl(ctx: Pick<CatalogContext, 'baseUrl'>, name: string): string {
  return agentUrl(ctx, findEndpoint(name).path);
}

export interface CheckoutLinkParams {
  objective: Objective;
  pack_id: PackId;
  source: string;
  binding?: KeyBinding;
}

/**
 * The key a checkout link binds to: signed (`exp`, `sig`) when the service vouches for it, bare
 * when the caller named a key id without its key (it binds all the same: spec payment flow 3).
 */
export interface KeyBinding {
  key_id: string;
  exp?: string;
  sig?: string;
}

/** GET /api/v1/agents/checkout-link?objective=…&pack_id=…&source=…[&key_id=…&exp=…&sig=…], absolute. */
export function packCheckoutUrl(ctx: Pick<CatalogContext, 'baseUrl'>, params: CheckoutLinkParams): string {
  const query = new URLSearchParams({ objective: params.objective, pack_id: params.pack_id, source: params.source });
  for (const [name, value] of Object.entries(params.binding ?? {})) if (value) query.set(name, value);
  return `${endpointUrl(ctx, 'checkout_link')}?${query.toString()}`;
}

/** The agent-surface envelope (spec "Response envelope"). */
export interface AgentEnvelope<T> {
  version: 'v1';
  as_of: string;
  data: T;
}

export function agentEnvelope<T>(now: Date, data: T): AgentEnvelope<T> {
  return { version: 'v1', as_of: now.toISOString(), data };
}
