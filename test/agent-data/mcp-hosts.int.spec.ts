// What MCP hosts see: a tool result usable from its text alone, the endpoint
// reachable with a wrong key, and each result's data sent once. Through the official SDK client.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CommandBus } from '@nestjs/cqrs';
import { GrantCreditsCommand } from '#agent-billing';
import { startTestApi, type TestApi } from '../api/support/test-api.js';
import { pay, postJson, withKey } from './support/agent-client.js';

type Json = Record<string, any>;
type ToolResult = { isError?: boolean; structuredContent: Json; content: Array<{ type: string; text: string }> };

describe('MCP as hosts see it: text, keys, result size (SDK client)', () => {
  let api: TestApi;
  const clients: Client[] = [];
  let unfunded: string;

  before(async () => {
    api = await startTestApi({
      env: { SVC_BOOTSTRAP: 'false', SVC_DEMO_DATA: 'true', SVC_MCP_ANONYMOUS_LIMIT_PER_MINUTE: '77' },
    });
    unfunded = (await pay(api.url)).key.api_key;
  });
  after(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    await api?.close();
  });

  async function connect(key?: string): Promise<Client> {
    const client = new Client({ name: 'mcp-hosts', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${api.url}/api/v1/mcp`), {
        requestInit: { headers: key ? { 'x-api-key': key } : {} },
      }),
    );
    clients.push(client);
    return client;
  }
  const call = async (client: Client, name: string, args: Json = {}) =>
    (await client.callTool({ name, arguments: args })) as ToolResult;

  it('a failed call says in its text the code, each field error by argument name, and the next call with its URL', async () => {
    const client = await connect(unfunded);
    const invalid = await call(client, 'svc.get_top_discovery', { sector: 'robots', limit: 500 });
    assert.equal(invalid.isError, true);
    const text = invalid.content[0]!.text;
    assert.match(text, /^Error 400 VALIDATION_FAILED: /);
    assert.match(text, /^- sector: expected one of .*robotics/m);
    assert.match(text, /^- limit: expected at most 100$/m);
    assert.match(text, /^Next: GET http:\/\/\S+ \(/m);
    assert.match(text, /Not charged\.$/);

    const broke = await call(client, 'svc.get_top_discovery', { limit: 3 });
    assert.equal(broke.structuredContent.status, 402);
    const checkout = broke.structuredContent.next_actions[0].url as string;
    assert.match(broke.content[0]!.text, /^Error 402 INSUFFICIENT_CREDITS: /);
    assert.match(broke.content[0]!.text, /costs 3\.50 USD and the balance is 0\.00 USD/);
    assert.ok(broke.content[0]!.text.includes(`Next: GET ${checkout}`), broke.content[0]!.text);
  });

  it('a wrong or revoked key does not block MCP: connect, tools/list and svc.signup work; a paid tool answers the 401 with its next step', async () => {
    const issued = await pay(api.url);
    const created = await fetch(`${api.url}/api/v1/agents/keys`, withKey(issued.key.api_key, postJson({})));
    assert.equal(created.status, 201, await created.clone().text());
    const rotated = ((await created.json()) as Json).key.api_key as string;
    const revoked = await fetch(
      `${api.url}/api/v1/agents/keys/${issued.key.id}`,
      withKey(rotated, { method: 'DELETE' }),
    );
    assert.ok(revoked.ok, await revoked.text());
    const wrong = `svc_test_${'A'.repeat(32)}AAAAAA`;
    for (const [key, code] of [
      [issued.key.api_key, 'REVOKED_KEY'],
      [wrong, 'INVALID_KEY'],
    ] as const) {
      const client = await connect(key);
      assert.equal((await client.listTools()).tools.length, 13, code);
      const signup = await call(client, 'svc.signup', { agent_name: 'recovering' });
      assert.equal(signup.isError, undefined, code);
      assert.match(signup.structuredContent.key.api_key, /^svc_test_/);
      const paid = await call(client, 'svc.get_top_discovery', { limit: 3 });
      assert.equal(paid.isError, true, code);
      assert.equal(paid.structuredContent.status, 401, code);
      assert.equal(paid.structuredContent.code, code);
      assert.match(paid.content[0]!.text, new RegExp(`^Error 401 ${code}: `), code);
      assert.match(paid.content[0]!.text, /^Next: GET \S+\/api\/v1\/agents\/status /m, code);
      // The ways back to the key's account first, a new account (the svc.signup tool) last.
      assert.deepEqual(
        paid.structuredContent.next_actions.map((a: Json) => a.action),
        ['check_key_status', 'rotate_key', 'call_tool', 'get_api_key', 'sign_up'],
        code,
      );
    }
    // Counted as no key: against the address's MCP budget, not a 401 at HTTP level.
    const listed = await fetch(`${api.url}/api/v1/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'x-api-key': wrong,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    assert.equal(listed.status, 200);
    assert.equal(listed.headers.get('x-ratelimit-limit'), '77');
  });

  it('the data once: a page is summed up in the text for clients of 2025-06-18 and later, the JSON for older ones', async () => {
    const issued = await pay(api.url);
    await api.app
      .get(CommandBus)
      .execute(new GrantCreditsCommand({ keyId: issued.key.id, creditsCents: 100_00, reference: 'PO-1' }));
    const key = issued.key.api_key;
    const client = await connect(key);
    const page = await call(client, 'svc.get_top_discovery', { limit: 10 });
    assert.equal(page.isError, undefined, JSON.stringify(page.structuredContent));
    const rest = (await (await fetch(`${api.url}/api/v1/discovery/top?limit=10`, withKey(key))).json()) as Json;
    assert.deepEqual(page.structuredContent, rest.data);
    const lines = page.content[0]!.text.split('\n');
    assert.match(lines[0]!, /^10 results; more: call again with cursor = next_cursor\./);
    assert.equal(lines[1], `next_cursor: ${rest.data.next_cursor}`);
    rest.data.data.forEach((item: Json, i: number) => {
      const line = lines[2 + i]!;
      assert.ok(line.startsWith(`${i + 1}. rank=${item.rank} id=${item.company.id} name=${item.company.name} `), line);
      assert.ok(line.includes(` score=${item.score} `), line);
    });
    assert.ok(page.content[0]!.text.length * 3 < JSON.stringify(rest.data).length, 'much shorter than the data');

    // One record is the answer itself: its JSON.
    const company = await call(client, 'svc.get_company', { id: rest.data.data[0].company.id });
    assert.deepEqual(JSON.parse(company.content[0]!.text), company.structuredContent);

    // A client that sends no MCP-Protocol-Version (2025-03-26, before structuredContent): the JSON.
    const old = await fetch(`${api.url}/api/v1/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-api-key': key },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'svc.get_top_discovery', arguments: { limit: 10 } },
      }),
    });
    const result = ((await old.json()) as Json).result;
    assert.deepEqual(JSON.parse(result.content[0].text), rest.data);
  });
});
