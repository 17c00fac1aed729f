/**
 * Zod building blocks shared by the catalogue documents' schemas, and the response envelope.
 * Each document's schema sits beside its builder (catalog.document.ts, status.documents.ts, ...):
 * the OpenAPI document takes its response schemas from them, the tests parse every answer with
 * them, and the request schemas are strict (unknown fields and parameters are refused). The
 * response envelope every agent-surface answer shares is envelope.schema.ts.
 */
import { z } from 'zod';
import { payBody } from '#agent-billing';
import { METER_NAMES, OBJECTIVES, PACK_IDS } from '#agent-contract';

export const url = z.url();
/**
 * An operation's address as the documents give it: an absolute URL, or a URI template (RFC
 * 6570) whose `{id}` placeholders the caller fills in, so not always a URI.
 */
export const urlTemplate = z
  .string()
  .regex(/^https?:\/\/\S+$/)
  .meta({
    format: 'uri-template',
    description: 'Absolute URL or URI template (RFC 6570): fill in the {placeholders}.',
  });
export const usd = z.number().min(0);
export const packId = z.enum(PACK_IDS);
export const objective = z.enum(OBJECTIVES);
export const meter = z.enum(METER_NAMES);
export const strings = z.array(z.string().min(1));
/** Whether a route is served today (agent-surface.ts, RouteStatus). */
export const routeStatus = z.enum(['available', 'planned']);

/**
 * A request to POST /agents/pay as the documents template it: the operation's own body schema,
 * so a template the documents publish is always a body the operation accepts.
 */
export const payBodyTemplate = payBody.unwrap();

export const noQuery = z.object({});
