// Over 200 lines on purpose: one started app whose steps build on each other (a key, credits, a
// tenant's records), comparing every MCP tool with its REST twin.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CommandBus } from '@nestjs/cqrs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateTenantCommand, type CreatedTenant } from '#agent-workspace';
import { GrantCreditsCommand } from '#agent-billing';
import { MCP_TOOLS } from '#agent-contract';
import { startTestApi, type TestApi, waitUntil } from '../api/support/test-api.js';
import { pay, payInSandbox, status, withKey } from './support/agent-client.js';

type Json = Record<string, any>;

const TOOL_NAMES = [
  'svc.signup',
  'svc.get_top_discovery',
  'svc.get_company',
  'svc.get_company_score',
  'svc.workspace.list_companies',
  'svc.workspace.get_memo',
  'svc.workspace.update_memo',
  'svc.workspace.update_deal',
  'svc.workspace.list_deals',
  'svc.workspace.upsert_followup',
  'svc.workspace.list_events',
  'svc.workspace.create_webhook',
  'svc.workspace.list_webhook_deliveries',
];

describe('MCP endpoint: the svc.* tools through the SDK client, each against its REST twin', () => {
  let api: TestApi;
  const clients: Client[] = [];
  let funded: string;
  let tenant: CreatedTenant;
  let other: CreatedTenant;

  before(async () => {
    api = await startTestApi({ env: { SVC_BOOTSTRAP: 'false', SVC_DEMO_DATA: 'true' } });
    const commands = api.app.get(CommandBus);
    tenant = await commands.execute(new CreateTenantCommand('Acme Ventures'));
    other = await commands.execute(new CreateTenantCommand('Other Capital'));
    // A grant finds the key in the api-keys read model, which a loaded machine fills a moment
    // after the tenant's key is created: retried until the key is there (a refused grant grants nothing).
    const grant = (keyId: string, creditsCents: number) =>
      waitUntil(
        () =>
          commands.execute(new GrantCreditsCommand({ keyId, creditsCents, reference: 'PO-1' })).catch((error) => {
            if ((error as { code?: string }).code === 'KEY_NOT_FOUND') return undefined;
            throw error;
          }),
        10_000,
        `the key ${keyId} in the read model`,
      );
    await grant(tenant.key.id, 500_00);
    await grant(other.key.id, 50_00);
    const issued = await pay(api.url);
    assert.equal((await payInSandbox(issued.starter_checkout.url)).status, 303);
    funded = issued.key.api_key;
    await waitUntil(async () => (await status(api.url, funded)).balance_usd > 0, 10_000, 'credits');
  });
  after(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    await api?.close();
  });

  async function connect(key?: string): Promise<Client> {
    const client = new Client({ name: 'mcp-test', version: '1.0.0' });
    const headers: Record<string, string> = key ? { 'x-api-key': key } : {};
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${api.url}/api/v1/mcp`), { requestInit: { headers } }),
    );
    clients.push(client);
    return client;
  }

  async function rest(key: string | null, method: string, path: string, body?: unknown) {
    const init: RequestInit = {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    };
    const res = await fetch(`${api.url}/api/v1${path}`, key ? withKey(key, init) : init);
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : null) as Json };
  }

  const call = async (client: Client, name: string, args: Json = {}) =>
    (await client.callTool({ name, arguments: args })) as {
      isError?: boolean;
      structuredContent: Json;
      content: Array<{ type: string; text: string }>;
      _meta?: Json;
    };

  it('initialize tells how to start; tools/list needs no key and lists the thirteen tools with schemas and hints', async () => {
    const client = await connect();
    assert.match(client.getInstructions() ?? '', /svc\.signup/);
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      TOOL_NAMES,
    );
    for (const tool of tools) {
      assert.ok(tool.description && tool.description.length > 40, `${tool.name} has a description`);
      assert.equal(tool.inputSchema.type, 'object');
      assert.equal(tool.outputSchema?.type, 'object', `${tool.name} has an output schema`);
      assert.equal(typeof tool.annotations?.readOnlyHint, 'boolean');
      assert.equal(typeof tool.annotations?.idempotentHint, 'boolean');
    }
    const top = tools.find((t) => t.name === 'svc.get_top_discovery')!;
    assert.equal(top.annotations?.readOnlyHint, true);
    assert.deepEqual(Object.keys(top.inputSchema.properties ?? {}).sort(), [
      'country',
      'cursor',
      'limit',
      'sector',
      'stage',
    ]);
    // The catalogue's tool table and the served tools agree, meters included.
    assert.deepEqual(
      MCP_TOOLS.map((t) => t.name),
      TOOL_NAMES,
    );
  });

  it('without a key: svc.signup issues one; a paid tool answers 401 with how to get a key', async () => {
    const client = await connect();
    const signup = await call(client, 'svc.signup', { agent_name: 'mcp-test' });
    assert.equal(signup.isError, undefined);
    assert.match(signup.structuredContent.key.api_key, /^svc_test_/);
    assert.match(signup.structuredContent.starter_checkout.url, /^http/);
    const paid = await call(client, 'svc.get_top_discovery', { limit: 3 });
    assert.equal(paid.isError, true);
    assert.equal(paid.structuredContent.status, 401);
    const actions = paid.structuredContent.next_actions as Json[];
    assert.equal(actions[0]!.tool, 'svc.signup', 'it says how to get a key over MCP');
    assert.ok(
      actions.some((a) => /\/agents\/signup$/.test(a.url)),
      'and over REST',
    );
  });

  it('an unknown tool is a JSON-RPC error -32602 naming the tools (the MCP specification’s tools error handling), charging nothing', async () => {
    const client = await connect(funded);
    const before = (await status(api.url, funded)).balance_usd;
    await assert.rejects(
      () => client.callTool({ name: 'svc.get_startups', arguments: { limit: 3 } }),
      (error: Json) => {
        assert.equal(error.code, -32602);
        assert.match(error.message, /Unknown tool: "svc\.get_startups"/);
        assert.match(error.message, /svc\.get_top_discovery/, 'it names the tools there are');
        assert.match(error.message, /tools\/list/);
        assert.deepEqual(error.data, { code: 'TOOL_NOT_FOUND', tools: TOOL_NAMES });
        return true;
      },
    );
    // On the wire: an error, not a result with isError.
    const res = await fetch(`${api.url}/api/v1/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'nope', arguments: {} } }),
    });
    const answer = (await res.json()) as Json;
    assert.deepEqual([answer.id, answer.result, answer.error.code], [9, undefined, -32602]);
    assert.equal((await status(api.url, funded)).balance_usd, before);
  });

  it('an unfunded key gets the 402 body REST gives, as a tool error, and nothing is charged', async () => {
    const unfunded = (await pay(api.url)).key.api_key;
    const viaRest = await rest(unfunded, 'GET', '/discovery/top?limit=3');
    assert.equal(viaRest.status, 402);
    const viaMcp = await call(await connect(unfunded), 'svc.get_top_discovery', { limit: 3 });
    assert.equal(viaMcp.isError, true);
    const body = viaMcp.structuredContent;
    for (const field of ['status', 'code', 'meter', 'price_usd', 'balance_usd', 'required_usd'])
      assert.deepEqual(body[field], viaRest.body[field], field);
    assert.deepEqual(
      body.next_actions.map((a: Json) => a.action),
      viaRest.body.next_actions.map((a: Json) => a.action),
    );
    assert.match(body.next_actions[0].url, /checkout-link.*sig=/, 'a signed checkout link for this key');
    assert.equal(viaMcp._meta?.credits_charged_usd, 0);
    assert.equal((await status(api.url, unfunded)).balance_usd, 0);
  });

  it('data tools answer what REST answers and charge the same', async () => {
    const client = await connect(funded);
    const balance = async () => (await status(api.url, funded)).balance_usd as number;
    const viaRest = await rest(funded, 'GET', '/discovery/top?limit=3');
    const b0 = await balance();
    const viaMcp = await call(client, 'svc.get_top_discovery', { limit: 3 });
    assert.equal(viaMcp.isError, undefined, JSON.stringify(viaMcp.structuredContent));
    assert.deepEqual(viaMcp.structuredContent, viaRest.body.data);
    assert.equal(viaMcp._meta?.credits_charged_usd, Number(viaRest.headers.get('x-credits-charged')));
    assert.equal(Math.round((b0 - (await balance())) * 100), Math.round(viaMcp._meta!.credits_charged_usd * 100));
    assert.equal(viaMcp._meta?.credits_balance_usd, await balance());
    // The data once (ADR 0084): a page's text names its items (mcp-hosts.int.spec.ts checks it).
    assert.match(viaMcp.content[0]!.text, /^3 results; more: /);

    const id = viaRest.body.data.data[0].company.id;
    for (const [tool, path] of [
      ['svc.get_company', `/companies/${id}`],
      ['svc.get_company_score', `/companies/${id}/score`],
    ] as const) {
      const r = await rest(funded, 'GET', path);
      assert.equal(r.status, 200, path);
      const m = await call(client, tool, { id });
      assert.deepEqual(m.structuredContent, r.body.data, tool);
      assert.equal(m._meta?.credits_charged_usd, Number(r.headers.get('x-credits-charged')), tool);
    }

    // Bad arguments: the REST 400, nothing charged.
    const before = await balance();
    const bad = await call(client, 'svc.get_top_discovery', { limit: 1000 });
    assert.equal(bad.isError, true);
    assert.equal(bad.structuredContent.status, 400);
    assert.equal(bad.structuredContent.code, 'VALIDATION_FAILED');
    assert.ok(bad.structuredContent.next_actions.length > 0);
    const unknown = await call(client, 'svc.get_company', { id, extra: 1 });
    assert.equal(unknown.structuredContent.status, 400);
    const missing = await call(client, 'svc.get_company', { id: 'cmp_01NOSUCHCOMPANY0000000000000' });
    assert.equal(missing.structuredContent.status, 404);
    assert.equal(await balance(), before);
  });

  it('workspace tools: each the same as its REST twin, with the same charges; another tenant’s ids are 404', async () => {
    const key = tenant.key.api_key;
    const client = await connect(key);
    const company = await rest(key, 'POST', '/workspace/companies', { name: 'Zeta Robotics', domain: 'zeta.example' });
    assert.equal(company.status, 201);
    const companyId = company.body.data.id;
    const deal = await rest(key, 'POST', '/workspace/deals', { company_id: companyId, name: 'Seed', stage: 'sourced' });
    const dealId = deal.body.data.id;

    const pairs: Array<[string, Json, string, string, unknown?]> = [
      ['svc.workspace.list_companies', {}, 'GET', '/workspace/companies'],
      ['svc.workspace.get_memo', { company_id: companyId }, 'GET', `/workspace/companies/${companyId}/memo`],
      ['svc.workspace.list_deals', { stage: 'sourced' }, 'GET', '/workspace/deals?stage=sourced'],
      ['svc.workspace.list_events', { limit: 50 }, 'GET', '/workspace/events?limit=50'],
      ['svc.workspace.list_webhook_deliveries', {}, 'GET', '/workspace/webhooks/deliveries'],
    ];
    for (const [tool, args, method, path] of pairs) {
      const r = await rest(key, method, path);
      assert.equal(r.status, 200, `${path}: ${JSON.stringify(r.body)}`);
      const m = await call(client, tool, args);
      assert.equal(m.isError, undefined, `${tool}: ${JSON.stringify(m.structuredContent)}`);
      assert.deepEqual(m.structuredContent, r.body.data, tool);
      assert.equal(m._meta?.credits_charged_usd, Number(r.headers.get('x-credits-charged') ?? 0), tool);
    }

    // Writes: the tool's result is what a REST read shows afterwards.
    const memo = await call(client, 'svc.workspace.update_memo', { company_id: companyId, body: '# Thesis' });
    assert.equal(memo.structuredContent.version, 1);
    assert.equal(memo._meta?.credits_charged_usd, 6);
    assert.deepEqual(
      (await rest(key, 'GET', `/workspace/companies/${companyId}/memo`)).body.data,
      memo.structuredContent,
    );
    const stale = await call(client, 'svc.workspace.update_memo', {
      company_id: companyId,
      body: 'late',
      if_match_version: 0,
    });
    assert.equal(stale.structuredContent.status, 412);
    assert.equal(stale.structuredContent.code, 'MEMO_VERSION_CONFLICT');
    const moved = await call(client, 'svc.workspace.update_deal', { deal_id: dealId, stage: 'screening' });
    assert.equal(moved.structuredContent.stage, 'screening');
    assert.equal(moved._meta?.credits_charged_usd, 6);
    const followUp = await call(client, 'svc.workspace.upsert_followup', {
      company_id: companyId,
      key: 'call-founder',
      title: 'Call the founder',
      due_at: '2026-12-01T09:00:00Z',
    });
    assert.equal(followUp.structuredContent.status, 'open');
    assert.equal(followUp._meta?.credits_charged_usd, 3);
    const sub = await call(client, 'svc.workspace.create_webhook', {
      url: 'https://hooks.example/acme',
      events: ['workspace.deal.stage_changed'],
    });
    assert.match(sub.structuredContent.id, /^sub_/);
    assert.ok(sub.structuredContent.secret, 'the generated secret is shown once');
    assert.equal(sub._meta?.credits_charged_usd, 4);

    // Another tenant: the same 404 as for an id that never existed, nothing charged.
    const otherClient = await connect(other.key.api_key);
    const otherBalance = (await status(api.url, other.key.api_key)).balance_usd;
    for (const [tool, args] of [
      ['svc.workspace.get_memo', { company_id: companyId }],
      ['svc.workspace.get_memo', { company_id: 'wco_000000000000000000000000' }],
      ['svc.workspace.update_memo', { company_id: companyId, body: 'x' }],
      ['svc.workspace.update_deal', { deal_id: dealId, stage: 'ic' }],
      [
        'svc.workspace.upsert_followup',
        { company_id: companyId, key: 'k', title: 't', due_at: '2026-12-01T09:00:00Z' },
      ],
    ] as const) {
      const r = await call(otherClient, tool, args);
      assert.equal(r.isError, true, tool);
      assert.equal(r.structuredContent.status, 404, `${tool}: ${JSON.stringify(r.structuredContent)}`);
    }
    assert.equal((await status(api.url, other.key.api_key)).balance_usd, otherBalance);

    // A self-serve key: 403 with the way to an enterprise workspace.
    const selfServe = await call(await connect(funded), 'svc.workspace.list_companies', {});
    assert.equal(selfServe.structuredContent.status, 403);
    assert.equal(selfServe.structuredContent.code, 'WORKSPACE_REQUIRES_ENTERPRISE');
    assert.ok(selfServe.structuredContent.next_actions.some((a: Json) => /\/agents\/leads$/.test(a.url)));
  });

  it('a tool validates its arguments as its REST twin does: every problem of the call in one 400, nothing charged', async () => {
    // The same pipeline validates both: a call wrong in two parts (the id in the path, the stage
    // in the body) lists both, where a copy parsing part by part stopped at the first.
    const key = tenant.key.api_key;
    const before = (await status(api.url, key)).balance_usd;
    const viaRest = await rest(key, 'PATCH', '/workspace/deals/not-a-deal', { stage: 'won' });
    assert.equal(viaRest.status, 400);
    const viaMcp = await call(await connect(key), 'svc.workspace.update_deal', { deal_id: 'not-a-deal', stage: 'won' });
    assert.equal(viaMcp.isError, true);
    assert.equal(viaMcp.structuredContent.code, 'VALIDATION_FAILED');
    assert.deepEqual(
      viaMcp.structuredContent.details.map((d: Json) => d.path),
      ['params.id', 'body.stage'],
    );
    assert.deepEqual(viaMcp.structuredContent.details, viaRest.body.details);
    assert.equal((await status(api.url, key)).balance_usd, before);
  });

  it("a lone tools/call (answered without a per-request SDK Server) gets what the SDK's Server answers", async () => {
    // A batch of one goes through the SDK's transport and Server: the reference answer.
    const post = async (body: unknown) => {
      const res = await fetch(`${api.url}/api/v1/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'x-api-key': funded,
        },
        body: JSON.stringify(body),
      });
      assert.equal(res.status, 200);
      return (await res.json()) as Json;
    };
    const compare = async (params: unknown, id: number) => {
      const message = { jsonrpc: '2.0', id, method: 'tools/call', params };
      // The SDK's transport answers a batch of one with the one response, not an array.
      const viaServer = await post([message]);
      return { lone: await post(message), viaServer: Array.isArray(viaServer) ? (viaServer[0] as Json) : viaServer };
    };
    // A success: the same answer, but for the balance the second charge left.
    const paid = await compare({ name: 'svc.get_top_discovery', arguments: { limit: 2 } }, 1);
    assert.equal(paid.lone.result.isError, undefined);
    const withoutBalance = ({ result, ...rest }: Json) => ({
      ...rest,
      result: { ...result, _meta: { ...result._meta, credits_balance_usd: 'the balance' } },
    });
    assert.deepEqual(withoutBalance(paid.lone), withoutBalance(paid.viaServer));
    // A tool error, an unknown tool, a call the SDK's schema refuses: the very same answers.
    for (const [params, id] of [
      [{ name: 'svc.get_top_discovery', arguments: { limit: 1000, extra: true } }, 2],
      [{ name: 'svc.no_such_tool', arguments: {} }, 3],
      [{ arguments: { limit: 1 } }, 4],
    ] as const) {
      const { lone, viaServer } = await compare(params, id);
      assert.deepEqual(lone, viaServer, JSON.stringify(params));
    }
  });

  it("a tool's charge names the server's request id, not the client's x-request-id or JSON-RPC id", async () => {
    const hostileId = `"><script>${'x'.repeat(5000)}`;
    const res = await fetch(`${api.url}/api/v1/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'x-api-key': funded,
        'x-request-id': 'req-chosen-by-the-client',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: hostileId,
        method: 'tools/call',
        params: { name: 'svc.get_top_discovery', arguments: { limit: 1 } },
      }),
    });
    assert.equal(res.status, 200);
    const answer = (await res.json()) as Json;
    assert.equal(answer.id, hostileId, 'the client gets its JSON-RPC id back');
    assert.ok(answer.result._meta.credits_charged_usd > 0);
    const serverId = res.headers.get('x-request-id')!;
    assert.match(serverId, /^[0-9a-f-]{36}$/);
    const ledger = await rest(funded, 'GET', '/billing/ledger?limit=100');
    const last = ledger.body.data.data.at(-1);
    assert.deepEqual([last.type, last.request_id], ['MeterCharged', `${serverId}:1`]);
  });

  it('answers JSON or an event stream as the client prefers; GET and DELETE are 405 (stateless)', async () => {
    const message = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
    const post = (accept: string) =>
      fetch(`${api.url}/api/v1/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept },
        body: JSON.stringify(message),
      });
    const json = await post('application/json, text/event-stream');
    assert.match(json.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(((await json.json()) as Json).result.tools.length, 13);
    const sse = await post('text/event-stream, application/json');
    assert.match(sse.headers.get('content-type') ?? '', /^text\/event-stream/);
    assert.match(await sse.text(), /^event: message\ndata: .*"tools"/m);
    // What the one-exchange path does not take goes through the SDK's transport: a notification
    // (202), a batch, an unsupported protocol version (400), a client that accepts JSON only (406).
    const raw = (body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${api.url}/api/v1/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify(body),
      });
    assert.equal((await raw({ jsonrpc: '2.0', method: 'notifications/initialized' })).status, 202);
    const batch = await raw([message, { ...message, id: 2 }]);
    assert.equal(batch.status, 200);
    assert.deepEqual(((await batch.json()) as Json[]).map((m) => m.id).sort(), [1, 2]);
    assert.equal((await raw(message, { 'mcp-protocol-version': '1999-01-01' })).status, 400);
    assert.equal((await raw(message, { accept: 'application/json' })).status, 406);
    const unknown = (await (await raw({ jsonrpc: '2.0', id: 7, method: 'no/such' })).json()) as Json;
    assert.equal(unknown.id, 7);
    assert.equal(unknown.error.code, -32601, 'method not found');
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${api.url}/api/v1/mcp`, { method });
      assert.equal(res.status, 405, method);
      assert.equal(res.headers.get('allow'), 'POST');
    }
  });
});
