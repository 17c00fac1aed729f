import { type ErrorDetail, Errors } from '#kernel';
import type { WebhookChannel } from './channel.js';
import { secretProblem, type WebhookUrlPolicy, webhookUrlProblem } from './webhook-url.policy.js';

export interface WebhookInput {
  url?: string;
  events?: string[];
  secret?: string;
}

/**
 * Checks what a create or update carries against the channel and the deployment (the HTTP
 * schema checks shapes; this is the rule every caller meets, MCP included). Throws 400
 * VALIDATION_FAILED naming each problem; returns the events deduplicated in their order.
 */
export function checkWebhookInput(
  channel: WebhookChannel,
  policy: WebhookUrlPolicy,
  input: WebhookInput,
  prefix = 'body',
): { events?: string[] } {
  const details: ErrorDetail[] = [];
  const at = (field: string) => (prefix ? `${prefix}.${field}` : field);
  if (input.url !== undefined) {
    const problem = webhookUrlProblem(input.url, policy);
    if (problem) details.push({ path: at('url'), message: problem });
  }
  let events: string[] | undefined;
  if (input.events !== undefined) {
    const known = new Set(channel.eventTypes);
    if (input.events.length === 0)
      details.push({ path: at('events'), message: 'subscribe to at least one event type' });
    input.events.forEach((type, i) => {
      if (!known.has(type))
        details.push({
          path: at(`events.${i}`),
          message: `unknown event type ${JSON.stringify(type)}; known: ${channel.eventTypes.join(', ')}`,
        });
    });
    events = [...new Set(input.events)];
  }
  if (input.secret !== undefined) {
    const problem = secretProblem(input.secret);
    if (problem) details.push({ path: at('secret'), message: problem });
  }
  if (details.length > 0) throw Errors.validation(details);
  return events !== undefined ? { events } : {};
}

export function urlPolicyOf(config: { env: 'test' | 'live'; webhookAllowPrivate: boolean }): WebhookUrlPolicy {
  return { requireHttps: config.env === 'live', allowPrivate: config.webhookAllowPrivate };
}
