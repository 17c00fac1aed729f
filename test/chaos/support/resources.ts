import { type ChaosApi, DEAD_WEBHOOK_URL, idOf, must, type Principal } from './chaos-api.js';
import type { KnownValues, Operation, Schema } from './openapi-operations.js';

/** Ids of resources made in one account or tenant, by kind (a `doomed_*` one may be deleted). */
export type Resources = Record<string, string>;

const pullRequest = { number: 7, title: 'Chaos', url: 'https://github.com/chaos/web/pull/7' };

/**
 * Platform resources of one account, made through the API the way a client makes them:
 * repositories, an agent, a run, an approval, an API key, a webhook with one delivery, an event.
 */
export async function platformResources(chaos: ChaosApi, as: Principal, tag: string): Promise<Resources> {
  const r: Resources = {};
  r.repository = idOf(await must(chaos, as, 'POST', '/v1/repositories', { name: `${tag}/web` }));
  r.doomed_repository = idOf(await must(chaos, as, 'POST', '/v1/repositories', { name: `${tag}/doomed` }));
  r.agent = idOf(await must(chaos, as, 'POST', '/v1/agents', { name: `${tag} reviewer`, template: 'code-review' }));
  const run = { repository_id: r.repository, pull_request: pullRequest };
  r.run = idOf(await must(chaos, as, 'POST', `/v1/agents/${r.agent}/runs`, run));
  r.approval = idOf(
    await must(chaos, as, 'POST', '/v1/approvals', {
      action: 'deploy',
      resource: { type: 'branch', id: 'main' },
      repository_id: r.repository,
    }),
  );
  r.doomed_api_key = idOf(await must(chaos, as, 'POST', '/v1/api-keys', { name: `${tag} doomed`, scopes: ['read'] }));
  r.webhook = idOf(
    await must(chaos, as, 'POST', '/v1/webhooks', {
      url: DEAD_WEBHOOK_URL,
      events: ['repository.connected'],
      secret: 'chaos-secret-0123456789',
    }),
  );
  r.doomed_webhook = idOf(
    await must(chaos, as, 'POST', '/v1/webhooks', {
      url: DEAD_WEBHOOK_URL,
      events: ['agent.started'],
      secret: 'chaos-secret-0123456789',
    }),
  );
  await must(chaos, as, 'POST', `/v1/webhooks/${r.webhook}/test`);
  const deliveries = await must(chaos, as, 'GET', `/v1/webhooks/${r.webhook}/deliveries`);
  r.delivery = String(deliveries.json.data[0].id);
  const events = await must(chaos, as, 'GET', '/v1/events?limit=1');
  r.event = String(events.json.data[0].id);
  return r;
}

/** Resources of a self-serve agent account: a second key, a checkout session, a setup intent. */
export async function agentResources(chaos: ChaosApi, as: Principal, tag: string): Promise<Resources> {
  const r: Resources = {};
  r.doomed_agent_key = idOf(await must(chaos, as, 'POST', '/api/v1/agents/keys', { name: `${tag} doomed` }));
  const checkout = await must(chaos, as, 'POST', '/api/v1/billing/topups/checkout', { pack_id: 'pack_29' });
  r.checkout_session = String(checkout.json.data?.session_id ?? checkout.json.session_id);
  const intent = await must(chaos, as, 'POST', '/api/v1/billing/setup-intent');
  const data = intent.json.data ?? intent.json;
  r.setup_intent = String(data.setup_intent_id ?? data.id);
  r.setup_intent_secret = String(data.client_secret);
  r.registry_target = 'openai';
  const top = await must(chaos, as, 'GET', '/api/v1/discovery/top?limit=1');
  const first = top.json.data.data[0];
  if (first) r.universe_company = String(first.company.id);
  return r;
}

/** Workspace records of one tenant: a company with a follow-up and a memo version, a deal, a subscription. */
export async function workspaceResources(chaos: ChaosApi, as: Principal, tag: string): Promise<Resources> {
  const r: Resources = {};
  r.workspace_company = idOf(
    await must(chaos, as, 'POST', '/api/v1/workspace/companies', {
      name: `${tag} Robotics`,
      domain: `${tag.toLowerCase()}-robotics.example`,
    }),
  );
  r.deal = idOf(
    await must(chaos, as, 'POST', '/api/v1/workspace/deals', { company_id: r.workspace_company, name: 'Seed' }),
  );
  r.follow_up_key = 'call-founder';
  await must(chaos, as, 'PUT', `/api/v1/workspace/companies/${r.workspace_company}/follow-ups/${r.follow_up_key}`, {
    title: 'Call the founder',
    due_at: '2026-05-01T09:00:00Z',
  });
  await must(chaos, as, 'PATCH', `/api/v1/workspace/companies/${r.workspace_company}/memo`, { body: '# Thesis' });
  r.subscription = idOf(
    await must(chaos, as, 'POST', '/api/v1/workspace/webhooks/subscriptions', {
      url: DEAD_WEBHOOK_URL,
      events: ['workspace.deal.created'],
    }),
  );
  return r;
}

/** Which resource a path parameter names (a key of Resources), from the parameter and its collection. */
export function resourceKind(op: Operation, name: string): string {
  if (name === 'key_id') return 'doomed_api_key';
  if (name === 'delivery_id') return 'delivery';
  if (name === 'target') return 'registry_target';
  if (name === 'key') return 'follow_up_key';
  const segments = op.path.split('/');
  const collection = segments[segments.indexOf(`{${name}}`) - 1] ?? '';
  // Deleting takes a resource of its own, so that the others stay for the operations after it.
  const deletes = op.method === 'DELETE' && op.path === `/v1/${collection}/{id}`;
  const kinds: Record<string, string> = {
    repositories: deletes ? 'doomed_repository' : 'repository',
    agents: 'agent',
    keys: 'doomed_agent_key',
    runs: 'run',
    approvals: 'approval',
    events: 'event',
    webhooks: deletes ? 'doomed_webhook' : 'webhook',
    checkout: 'checkout_session',
    'setup-intents': 'setup_intent',
    companies: op.surface === 'workspace' ? 'workspace_company' : 'universe_company',
    deals: 'deal',
    subscriptions: 'subscription',
  };
  return kinds[collection] ?? 'unknown';
}

/** Body fields that name resources of the caller's account, so that a baseline body is valid. */
export function knownValues(r: Resources): KnownValues {
  return (name: string, schema: Schema) => {
    const pattern = String(schema.pattern ?? '');
    const values: Record<string, unknown> = {
      repository_id: r.repository,
      agent_id: r.agent,
      run_id: r.run,
      company_id: pattern.includes('wco_') ? r.workspace_company : r.universe_company,
      url: DEAD_WEBHOOK_URL,
      secret: 'chaos-secret-0123456789',
      client_secret: r.setup_intent_secret,
      payment_method_id: 'pm_card_visa',
      setup_intent_id: r.setup_intent,
    };
    if (name === 'name' && pattern.includes('\\/')) return 'chaos/fuzzed';
    return values[name];
  };
}

/** Valid bodies the schema alone cannot give (every field optional, but one needed). */
export const VALID_BODIES: Record<string, unknown> = {
  'POST /api/v1/workspace/companies': { name: 'Fuzz Robotics', domain: 'fuzz-robotics.example' },
  'PATCH /api/v1/workspace/deals/{id}': { stage: 'screening' },
  'PATCH /v1/agents/{id}': { name: 'Renamed' },
  'PATCH /v1/webhooks/{id}': { active: true },
};
