// A request the service could have refused for free is never charged. One case
// (or more) per metered route and per paid MCP tool, each checked against the account's ledger;
// the tables must cover every metered row of the endpoint table, so a new paid route needs a case.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CommandBus } from '@nestjs/cqrs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { AGENT_ENDPOINTS, MCP_TOOLS } from '#agent-contract';
import { CreateTenantCommand, type CreatedTenant } from '#agent-workspace';
import { creditsStream, GrantCreditsCommand } from '#agent-billing';
import { EVENT_STORE, type EventStore } from '#eventstore';
import { ProjectionStore } from '#projections';
import { startTestApi, type TestApi, waitUntil } from '../api/support/test-api.js';
import { withKey } from './support/agent-client.js';

type Json = Record<string, any>;

const UNKNOWN_CMP = 'cmp_00000000000000000000000000';
const UNKNOWN_WCO = 'wco_000000000000000000000000';
const UNKNOWN_DEAL = 'deal_00000000000000000000000000';

describe('refused requests are free: every metered route and paid tool', () => {
  let api: TestApi;
  let events: EventStore;
  let tenant: CreatedTenant;
  let client: Client;

  /** The account's ledger: every event of its credits stream. */
  const ledger = async () => {
    const out: string[] = [];
    for await (const e of events.readStream(creditsStream(tenant.account_id))) out.push(`${e.type}#${e.revision}`);
    return out;
  };

  before(async () => {
    api = await startTestApi({ env: { SVC_BOOTSTRAP: 'false', SVC_DEMO_DATA: 'true' } });
    events = api.app.get<EventStore>(EVENT_STORE);
    const commands = api.app.get(CommandBus);
    tenant = await commands.execute(new CreateTenantCommand('Acme Ventures'));
    await commands.execute(new GrantCreditsCommand({ keyId: tenant.key.id, creditsCents: 500_00, reference: 'PO-1' }));
    const profiles = api.app.get(ProjectionStore).collection<{ id: string }>('company-profiles', 'company_profiles');
    const universe = await waitUntil(
      async () => (await profiles.find({}, { limit: 1 })).items[0],
      10_000,
      'demo companies',
    );
    const added = await rest('POST', '/workspace/companies', { company_id: universe.id, owner: 'ana', stage: 'seed' });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    client = new Client({ name: 'refusals', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${api.url}/api/v1/mcp`), {
        requestInit: { headers: { 'x-api-key': tenant.key.api_key } },
      }),
    );
  });
  after(async () => {
    await client?.close().catch(() => undefined);
    await api?.close();
  });

  async function rest(method: string, path: string, body?: unknown) {
    const res = await fetch(
      `${api.url}/api/v1${path}`,
      withKey(tenant.key.api_key, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : null) as Json };
  }

  /** [endpoint name, method, path, body?, expected status] */
  const REST_CASES: Array<[string, string, string, unknown, number]> = [
    ['discovery_top', 'GET', '/discovery/top?sector=robots', undefined, 400],
    ['discovery_top', 'GET', '/discovery/top?country=UK', undefined, 400],
    ['discovery_top', 'GET', '/discovery/top?country=XX', undefined, 400],
    ['discovery_top', 'GET', '/discovery/top?cursor=garbage', undefined, 400],
    ['company_profile', 'GET', `/companies/${UNKNOWN_CMP}`, undefined, 404],
    ['company_profile', 'GET', '/companies/no-such-domain.example', undefined, 404],
    ['company_score', 'GET', `/companies/${UNKNOWN_CMP}/score`, undefined, 404],
    ['workspace_companies', 'GET', '/workspace/companies?owner=nobody', undefined, 400],
    ['workspace_companies', 'GET', '/workspace/companies?stage=series-z', undefined, 400],
    ['workspace_companies', 'GET', '/workspace/companies?cursor=garbage', undefined, 400],
    ['workspace_add_company', 'POST', '/workspace/companies', { company_id: UNKNOWN_CMP }, 404],
    ['workspace_company', 'GET', `/workspace/companies/${UNKNOWN_WCO}`, undefined, 404],
    ['workspace_followups', 'GET', `/workspace/companies/${UNKNOWN_WCO}/follow-ups`, undefined, 404],
    ['workspace_memo', 'GET', `/workspace/companies/${UNKNOWN_WCO}/memo`, undefined, 404],
    ['workspace_update_memo', 'PATCH', `/workspace/companies/${UNKNOWN_WCO}/memo`, { body: 'x' }, 404],
    ['workspace_memo_versions', 'GET', `/workspace/companies/${UNKNOWN_WCO}/memo/versions`, undefined, 404],
    ['workspace_deals', 'GET', '/workspace/deals?stage=won', undefined, 400],
    ['workspace_deals', 'GET', '/workspace/deals?cursor=garbage', undefined, 400],
    ['workspace_create_deal', 'POST', '/workspace/deals', { company_id: UNKNOWN_WCO, name: 'A' }, 404],
    ['workspace_update_deal', 'PATCH', `/workspace/deals/${UNKNOWN_DEAL}`, { name: 'B' }, 404],
    [
      'workspace_followup',
      'POST',
      `/workspace/companies/${UNKNOWN_WCO}/follow-ups`,
      { title: 'Call', due_at: '2030-01-01T00:00:00Z' },
      404,
    ],
    [
      'workspace_followup_by_key',
      'PUT',
      `/workspace/companies/${UNKNOWN_WCO}/follow-ups/k1`,
      { title: 'Call', due_at: '2030-01-01T00:00:00Z' },
      404,
    ],
    ['workspace_events', 'GET', '/workspace/events?types=company.bogus', undefined, 400],
    ['workspace_events', 'GET', '/workspace/events?after=garbage', undefined, 400],
    [
      'workspace_create_webhook',
      'POST',
      '/workspace/webhooks/subscriptions',
      { url: 'https://hooks.example/x', events: ['company.bogus'] },
      400,
    ],
  ];

  /** [tool, arguments, expected status in the tool error] */
  const MCP_CASES: Array<[string, Json, number]> = [
    ['svc.get_top_discovery', { sector: 'robots' }, 400],
    ['svc.get_top_discovery', { country: 'UK' }, 400],
    ['svc.get_company', { id: UNKNOWN_CMP }, 404],
    ['svc.get_company_score', { id: UNKNOWN_CMP }, 404],
    ['svc.workspace.list_companies', { owner: 'nobody' }, 400],
    ['svc.workspace.get_memo', { company_id: UNKNOWN_WCO }, 404],
    ['svc.workspace.update_memo', { company_id: UNKNOWN_WCO, body: 'x' }, 404],
    ['svc.workspace.update_deal', { deal_id: UNKNOWN_DEAL, name: 'B' }, 404],
    ['svc.workspace.list_deals', { stage: 'won' }, 400],
    [
      'svc.workspace.upsert_followup',
      { company_id: UNKNOWN_WCO, key: 'k1', title: 'C', due_at: '2030-01-01T00:00:00Z' },
      404,
    ],
    ['svc.workspace.list_events', { types: 'company.bogus' }, 400],
    ['svc.workspace.create_webhook', { url: 'https://hooks.example/x', events: ['company.bogus'] }, 400],
  ];

  it('the tables cover every metered route and every paid tool', () => {
    const metered = AGENT_ENDPOINTS.filter((e) => e.meter).map((e) => e.name);
    assert.deepEqual([...new Set(REST_CASES.map((c) => c[0]))].sort(), [...metered].sort());
    const paid = MCP_TOOLS.filter((t) => t.meter).map((t) => t.name);
    assert.deepEqual([...new Set(MCP_CASES.map((c) => c[0]))].sort(), [...paid].sort());
  });

  for (const [name, method, path, body, want] of REST_CASES)
    it(`REST ${name}: ${method} ${path} is ${want} and charges nothing`, async () => {
      const before = await ledger();
      const res = await rest(method, path, body);
      assert.equal(res.status, want, JSON.stringify(res.body));
      assert.deepEqual(await ledger(), before);
    });

  for (const [tool, args, want] of MCP_CASES)
    it(`MCP ${tool} ${JSON.stringify(args)} is a ${want} tool error and charges nothing`, async () => {
      const before = await ledger();
      const result = (await client.callTool({ name: tool, arguments: args })) as Json;
      assert.equal(result.isError, true, JSON.stringify(result));
      assert.equal(result.structuredContent.status, want, JSON.stringify(result.structuredContent));
      assert.deepEqual(await ledger(), before);
    });

  it('a mistyped sector is refused with the published sectors (the OpenAPI enum and the tool schema)', async () => {
    const res = await rest('GET', '/discovery/top?sector=robots');
    assert.equal(res.body.code, 'VALIDATION_FAILED');
    const detail = res.body.details.find((d: Json) => d.path === 'query.sector');
    assert.match(detail.message, /robotics/);
    const { tools } = await client.listTools();
    const sector = (tools.find((t) => t.name === 'svc.get_top_discovery')!.inputSchema.properties as Json).sector;
    assert.ok(sector.enum.includes('robotics') && sector.enum.includes('fintech'), JSON.stringify(sector));
    const openapi = (await (await fetch(`${api.url}/docs/api/openapi.v1.json`)).json()) as Json;
    const parameter = openapi.paths['/api/v1/discovery/top'].get.parameters.find((p: Json) => p.name === 'sector');
    assert.deepEqual(parameter.schema.enum, sector.enum);
  });
});
