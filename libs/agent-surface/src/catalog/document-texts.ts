/**
 * The words of the information documents (document-texts.data.yaml), checked by the schema below
 * when this module loads. The documents assemble themselves in code from the tables and the
 * CatalogContext; they take their prose from here and fill its placeholders with `fillText`.
 */
import { z } from 'zod';
import {
  AGENT_ENDPOINTS,
  type CatalogContext,
  type EndpointAuth,
  endpointUrl,
  MCP_TOOLS,
  OBJECTIVES,
  OPERATOR_PILOT_DAYS,
  PACK_CAPABILITIES,
  REGISTRY_TARGETS,
} from '#agent-contract';
import { loadDataFile } from '#kernel';

/**
 * Placeholders a text may hold besides `{{endpoint:NAME}}`: the pilot's length is filled in at load,
 * the others by fillText from the context or the caller.
 */
const VALUES = ['env', 'objectives', 'rate_limit_per_minute', 'operator_pilot_days', 'recovery_checkout'] as const;
type ExtraValue = 'recovery_checkout';

const PLACEHOLDER = /\{\{([a-z_]+)(?::([a-z_]+))?\}\}/g;
const ENDPOINT_NAMES = new Set(AGENT_ENDPOINTS.map((e) => e.name));

/** A text whose every `{{…}}` is a known value or an operation of the table (a typo would be published). */
const text = z
  .string()
  .min(1)
  .superRefine((s, ctx) => {
    for (const [whole, name, arg] of s.matchAll(PLACEHOLDER)) {
      const known =
        name === 'endpoint' ? arg !== undefined && ENDPOINT_NAMES.has(arg) : !arg && VALUES.some((v) => v === name);
      if (!known) ctx.addIssue({ code: 'custom', message: `unknown placeholder ${whole}` });
    }
    const unparsed = s.replace(PLACEHOLDER, '').match(/\{\{[^}]*\}\}/);
    if (unparsed) ctx.addIssue({ code: 'custom', message: `unknown placeholder ${unparsed[0]}` });
  })
  // The pilot's length is the same everywhere: filled in once, here.
  .transform((s) => s.replaceAll('{{operator_pilot_days}}', String(OPERATOR_PILOT_DAYS)));
const texts = z.array(text).min(1);

const flow = z.strictObject({
  key: z.string().regex(/^[a-z_]+$/),
  name: text,
  /** The operations it uses: planned while one of them is. */
  endpoints: z.array(z.string().refine((n) => ENDPOINT_NAMES.has(n), 'no such operation')).min(1),
  steps: texts,
});
const toolFlow = flow.omit({ endpoints: true }).extend({
  /** The MCP tool it uses: planned while that tool is. */
  tool: z.string().refine((n) => MCP_TOOLS.some((t) => t.name === n), 'no such MCP tool'),
});

/** Every key of a closed set, each with a text (a strict object built from the set). */
const textPerKey = <K extends string>(keys: readonly K[]) =>
  z.strictObject(Object.fromEntries(keys.map((k) => [k, text])) as Record<K, typeof text>);

const AUTH_LEVELS: readonly EndpointAuth[] = ['none', 'key', 'key_optional', 'tenant_key'];

/** The shape of document-texts.data.yaml (exported for its spec). */
export const documentTextsFileSchema = z.strictObject({
  service: z.strictObject({
    name: text,
    description: text,
    short_description: text.refine((s) => s.length <= 100, 'at most 100 characters (registries cut longer ones)'),
    version: z.string().regex(/^\d+\.\d+\.\d+$/),
  }),
  authentication: z.strictObject({ alternative: text, enterprise: text, status_note: text }),
  auth_levels: textPerKey(AUTH_LEVELS),
  pack_capabilities: textPerKey(PACK_CAPABILITIES),
  payment_flows: z.array(flow).min(1),
  acquisition_flows: z.array(z.union([flow, toolFlow])).min(1),
  attribution: z.array(z.strictObject({ name: z.string().min(1), where: text, meaning: text })).min(1),
  acquisition: z.strictObject({ summary: text, check_call: text, idempotency: text }),
  traffic: z.strictObject({ summary: text, on_limit: text }),
  trust: z.strictObject({
    summary: text,
    keys: texts,
    billing: texts,
    payments: texts,
    data: texts,
    webhooks: texts,
    audit: text,
  }),
  value_proof: z.strictObject({
    discovery_action: text,
    evaluate_action: text,
    guarantees: texts,
    verify: z.array(z.strictObject({ what: text, how: text })).min(1),
  }),
  offers: z.strictObject({ offer_codes: text, note: text }),
  growth: z.strictObject({ summary: text, autopay_enable: texts }),
  conversion: z.strictObject({
    objections: z.array(z.strictObject({ question: text, answer: text })).min(1),
  }),
  recovery: z.strictObject({
    summary: text,
    by_status: z.array(z.strictObject({ status: z.int().min(400).max(599), cause: text, steps: texts })).min(1),
    retry_safety: text,
  }),
  error_catalog: z.strictObject({ note: text }),
  registry: z.strictObject({
    targets: textPerKey(REGISTRY_TARGETS),
    obtain_returns: text,
    pricing_model: text,
  }),
  pay_templates: z.strictObject({
    fastest_revenue: z.strictObject({ agent_name: text, use_case: text }),
    operator_pilot: z.strictObject({ agent_name: text, use_case: text, contact_email: z.email() }),
  }),
});

export type DocumentTexts = z.output<typeof documentTextsFileSchema>;

export const TEXTS: DocumentTexts = loadDataFile(
  import.meta.url,
  './document-texts.data.yaml',
  documentTextsFileSchema,
);

/** `text` with its placeholders filled in for this deployment; `extra` gives the values only a caller knows. */
export function fillText(
  ctx: Pick<CatalogContext, 'baseUrl' | 'env' | 'rateLimitPerMinute'>,
  text: string,
  extra: Partial<Record<ExtraValue, string>> = {},
): string {
  return text.replace(PLACEHOLDER, (_whole, name: string, arg?: string) => {
    if (name === 'endpoint') return endpointUrl(ctx, arg!);
    const value: string | undefined = {
      env: ctx.env,
      objectives: OBJECTIVES.join(', '),
      rate_limit_per_minute: String(ctx.rateLimitPerMinute),
      ...extra,
    }[name];
    if (value === undefined) throw new Error(`no value for {{${name}}} in "${text}"`);
    return value;
  });
}

/** Every text of a list filled in. */
export const fillTexts = (ctx: Parameters<typeof fillText>[0], list: readonly string[]) =>
  list.map((t) => fillText(ctx, t));
