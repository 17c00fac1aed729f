import { z } from 'zod';
import {
  AGENT_ENDPOINTS,
  agentBaseUrl,
  agentUrl,
  type CatalogContext,
  endpointStatus,
  type RouteStatus,
} from '#agent-contract';
import {
  descriptorMaps,
  descriptors,
  SERVICE_DESCRIPTION,
  SERVICE_NAME,
  SERVICE_VERSION,
} from './information.parts.js';

/** Operation name → its address (a URI template where the path has `{…}`), for the given status. */
function endpointUrls(ctx: CatalogContext, status: RouteStatus): Record<string, string> {
  return Object.fromEntries(
    AGENT_ENDPOINTS.filter((e) => endpointStatus(e) === status).map((e) => [e.name, agentUrl(ctx, e.path)]),
  );
}

/**
 * GET /api/v1, the address the descriptors give as the API's base: its entry points as a map of
 * names to addresses (like GitHub's API root), rendered from the agent-surface table and the
 * descriptor paths, so it lists what the other documents list.
 */
export function buildApiIndex(ctx: CatalogContext) {
  const planned = endpointUrls(ctx, 'planned');
  return {
    name: SERVICE_NAME,
    description: SERVICE_DESCRIPTION,
    version: SERVICE_VERSION,
    api_base_url: agentBaseUrl(ctx),
    endpoints: endpointUrls(ctx, 'available'),
    ...(Object.keys(planned).length ? { planned_endpoints: planned } : {}),
    ...descriptorMaps(ctx, 'descriptors'),
  };
}

// Values with `{…}` are URI templates (RFC 6570), not URIs: plain strings here.
const addresses = z
  .record(z.string(), z.string())
  .describe('Operation name → absolute URL, or a URI template where the path has {…}.');

export const apiIndexSchema = z
  .strictObject({
    name: z.string(),
    description: z.string(),
    version: z.string(),
    api_base_url: z.string(),
    endpoints: addresses,
    planned_endpoints: addresses.optional(),
    descriptors,
    planned_descriptors: descriptors.optional(),
  })
  .meta({ id: 'AgentApiIndex' });
