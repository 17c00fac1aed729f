// Over 200 lines on purpose: the MCP endpoint's limits (ADR 0074),
// each suite on its own started app, through real HTTP.
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { CommandBus } from '@nestjs/cqrs';
import { GrantCreditsCommand } from '#agent-billing';
import { FakeClock } from '#kernel';
import { startTestApi, type TestApi } from '../api/support/test-api.js';
import { pay, withKey } from './support/agent-client.js';

type Json = Record<string, any>;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
}

/** A POST to the MCP endpoint through node:http, which (unlike fetch) may send any Host header. */
function mcp(api: TestApi, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${api.url}/api/v1/mcp`,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'content-length': Buffer.byteLength(payload),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = text ? JSON.parse(text) : null;
          } catch {
            json = null;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const call = (id: number, name = 'svc.get_top_discovery', args: Json = { limit: 1 }) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});
const list = (id: number | string) => ({ jsonrpc: '2.0', id, method: 'tools/list', params: {} });
const initialize = (id: number, protocolVersion: string) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 'limits-test', version: '1.0.0' } },
});
const byId = (answers: Json[]) => [...answers].sort((a, b) => Number(a.id) - Number(b.id));

describe('MCP batches: each message counts against the key; batches only where the protocol has them', () => {
  let api: TestApi;
  let key: string;

  before(async () => {
    api = await startTestApi({
      // Fixed windows on a stopped clock: a slow run never crosses a minute and resets a count.
      clock: new FakeClock('2026-11-02T10:00:05.000Z'),
      env: { SVC_AGENT_RATE_LIMIT_PER_MINUTE: '20' },
    });
    const issued = await pay(api.url);
    key = issued.key.api_key;
    await api.app
      .get(CommandBus)
      .execute(new GrantCreditsCommand({ keyId: issued.key.id, creditsCents: 500_00, reference: 'PO-1' }));
  });
  after(async () => {
    await api?.close();
  });

  const remaining = async () =>
    Number((await fetch(`${api.url}/api/v1/agents/status`, withKey(key))).headers.get('x-ratelimit-remaining'));

  it('a refused batch runs nothing and costs nothing: too large, or under a protocol version without batches', async () => {
    const before = await remaining();
    const oversize = await mcp(
      api,
      Array.from({ length: 21 }, (_, i) => call(i + 1)),
      { 'x-api-key': key },
    );
    assert.equal(oversize.status, 400);
    assert.equal(oversize.json.id, null);
    assert.equal(oversize.json.error.code, -32600);
    assert.equal(oversize.json.error.data.code, 'BATCH_TOO_LARGE');
    assert.match(oversize.json.error.message, /at most 20 messages; this one holds 21/);
    for (const version of ['2025-06-18', '2025-11-25']) {
      const refused = await mcp(api, [list(1), list(2)], { 'x-api-key': key, 'mcp-protocol-version': version });
      assert.equal(refused.status, 400, version);
      assert.equal(refused.json.error.data.code, 'BATCH_NOT_SUPPORTED', version);
      assert.match(refused.json.error.message, new RegExp(version));
    }
    const negotiated = await mcp(api, [initialize(1, '2025-11-25'), list(2)]);
    assert.equal(negotiated.status, 400, 'an initialize in the batch names its version');
    assert.equal(negotiated.json.error.data.code, 'BATCH_NOT_SUPPORTED');
    // 1 for the status request itself: the refused batches counted nothing.
    assert.equal(await remaining(), before - 1);

    const older = await mcp(api, [list(1), list(2)], { 'mcp-protocol-version': '2025-03-26' });
    assert.equal(older.status, 200, 'a version with batches takes them');
    assert.deepEqual(
      byId(older.json).map((m: Json) => m.result.tools.length),
      [13, 13],
    );
  });

  it('every call of a batch counts; past the budget a call is refused with the 429 body while the earlier ones run', async () => {
    const start = await remaining();
    const first = await mcp(
      api,
      Array.from({ length: 6 }, (_, i) => call(i + 1)),
      { 'x-api-key': key },
    );
    assert.equal(first.status, 200);
    const firstAnswers = byId(first.json);
    assert.equal(firstAnswers.length, 6);
    for (const a of firstAnswers) assert.equal(a.result.isError, undefined, JSON.stringify(a.result));
    assert.equal(Number(first.headers['x-ratelimit-remaining']), start - 6, 'six calls, six counted');
    assert.equal(await remaining(), start - 7);

    // What is left: start - 7. A batch of that plus three: the last three are refused.
    const left = start - 7;
    const batch = [...Array.from({ length: left + 2 }, (_, i) => call(i + 1)), list(left + 3)];
    const second = await mcp(api, batch, { 'x-api-key': key });
    assert.equal(second.status, 200);
    const answers = byId(second.json);
    const ran = answers.slice(0, left);
    const refused = answers.slice(left);
    for (const a of ran) {
      assert.equal(a.result.isError, undefined, JSON.stringify(a.result));
      assert.equal(a.result._meta.credits_charged_usd, 3.5);
    }
    for (const a of refused.slice(0, 2)) {
      assert.equal(a.result.isError, true);
      assert.equal(a.result.structuredContent.status, 429);
      assert.equal(a.result.structuredContent.code, 'RATE_LIMIT_EXCEEDED');
      assert.equal(a.result.structuredContent.retry_after, 55, 'the rest of the minute (the clock stands at :05)');
      assert.deepEqual(a.result._meta.rate_limit, { limit: 20, remaining: 0, reset: 1793613660, retry_after: 55 });
      assert.equal(a.result._meta.credits_charged_usd, 0, 'not charged');
    }
    const refusedList = refused[2]!;
    assert.equal(refusedList.error.code, -32000, 'a refused message other than a call: a JSON-RPC error');
    assert.equal(refusedList.error.data.code, 'RATE_LIMIT_EXCEEDED');
    assert.equal(second.headers['x-ratelimit-remaining'], '0');

    const spent = await fetch(`${api.url}/api/v1/agents/status`, withKey(key));
    assert.equal(spent.status, 429, 'the key has spent its minute');
    assert.equal(spent.headers.get('retry-after'), '55');
  });
});

describe('MCP without a key: a budget per client address, counted per message', () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi({
      clock: new FakeClock('2026-11-02T10:00:05.000Z'),
      env: {
        SVC_TRUSTED_PROXIES: '127.0.0.1',
        SVC_MCP_ANONYMOUS_LIMIT_PER_MINUTE: '5',
        SVC_SIGNUP_LIMIT_PER_HOUR: '2',
        SVC_ANONYMOUS_GLOBAL_LIMIT_PER_MINUTE: '2',
      },
    });
  });
  after(async () => {
    await api?.close();
  });

  const from = (ip: string) => ({ 'x-forwarded-for': ip });

  it('a flood from one address is refused with 429; another address is not affected', async () => {
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await mcp(api, list(i), from('198.51.100.1'))).status);
    assert.deepEqual(statuses, [200, 200, 200, 200, 200]);
    const refused = await mcp(api, list(6), from('198.51.100.1'));
    assert.equal(refused.status, 429);
    assert.equal(refused.headers['retry-after'], '55');
    assert.equal(refused.headers['x-ratelimit-remaining'], '0');
    assert.equal(refused.json.code, 'RATE_LIMIT_EXCEEDED');
    assert.match(refused.json.message, /without an API key from your address/);

    // Another address: its own five, a batch's messages each counted.
    const other = await mcp(api, [list(1), list(2), list(3)], from('198.51.100.2'));
    assert.equal(other.status, 200);
    assert.equal(other.headers['x-ratelimit-remaining'], '2');
    const past = await mcp(api, [list(4), list(5), list(6)], from('198.51.100.2'));
    assert.equal(past.status, 200);
    const [four, five, six] = byId(past.json);
    assert.equal(four.result.tools.length, 13);
    assert.equal(five.result.tools.length, 13);
    assert.equal(six.error.data.code, 'RATE_LIMIT_EXCEEDED', 'the sixth message of the address is refused');
  });

  it('the refused flood spent no budget anyone else needs: signups from anywhere still go through', async () => {
    // The anonymous-write ceiling is 2 a minute for everyone together: one MCP message on it would show.
    for (const ip of ['198.51.100.1', '198.51.100.3'])
      assert.equal(
        (
          await fetch(`${api.url}/api/v1/agents/signup`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', ...from(ip) },
            body: '{}',
          })
        ).status,
        201,
        ip,
      );
  });
});

describe('MCP tools/list: one serialisation, the same answer on every path', () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi();
  });
  after(async () => {
    await api?.close();
  });

  it('answers the same bytes every time, equal to what the SDK path answers in a batch', async () => {
    const one = await mcp(api, list(1));
    const two = await mcp(api, list(1));
    assert.equal(one.status, 200);
    assert.equal(one.text, two.text, 'byte for byte');
    const named = await mcp(api, list('x'));
    assert.deepEqual(named.json, { ...one.json, id: 'x' });
    const batch = await mcp(api, [list(7), list(8)]);
    for (const answer of batch.json as Json[]) assert.deepEqual(answer.result, one.json.result);
    assert.equal(one.json.result.tools.length, 13);
  });
});

describe('MCP Origin and Host (DNS rebinding): the conformance scenario and the allow-list', () => {
  let api: TestApi;
  let host: string;
  before(async () => {
    api = await startTestApi({ env: { SVC_MCP_ALLOWED_ORIGINS: 'http://localhost:6274' } });
    host = new URL(api.url).host;
  });
  after(async () => {
    await api?.close();
  });

  it('dns-rebinding-protection (@modelcontextprotocol/conformance): a foreign Host and Origin 4xx, localhost 2xx', async () => {
    // The scenario's two requests as it sends them (its CLI needs Node 22; this machine has 20).
    const evil = await mcp(api, initialize(1, '2025-11-25'), {
      host: 'evil.example.com',
      origin: 'http://evil.example.com',
    });
    assert.equal(evil.status, 403);
    assert.equal(evil.json.jsonrpc, '2.0');
    assert.equal(evil.json.id, null);
    assert.equal(evil.json.error.data.code, 'ORIGIN_NOT_ALLOWED');
    const local = await mcp(api, initialize(1, '2025-11-25'), { host, origin: `http://${host}` });
    assert.equal(local.status, 200);
    assert.equal(local.json.result.protocolVersion, '2025-11-25');
  });

  it('no Origin (a client outside a browser) and an allowed one work; another site, "null" and a rebound name are 403', async () => {
    assert.equal((await mcp(api, list(1))).status, 200);
    assert.equal((await mcp(api, list(1), { origin: 'http://localhost:6274' })).status, 200, 'SVC_MCP_ALLOWED_ORIGINS');
    for (const origin of ['https://evil.example.com', 'null', `http://${host}.evil.example.com`, `https://${host}`]) {
      const refused = await mcp(api, list(1), { origin });
      assert.equal(refused.status, 403, origin);
      assert.equal(refused.json.error.data.code, 'ORIGIN_NOT_ALLOWED', origin);
    }
  });
});

describe('MCP Host with SVC_PUBLIC_URL set', () => {
  let api: TestApi;
  let key: string;
  before(async () => {
    api = await startTestApi({ env: { SVC_PUBLIC_URL: 'https://data.example.com' } });
    key = (await pay(api.url)).key.api_key;
  });
  after(async () => {
    await api?.close();
  });

  it('a Host that is not the service is 403 before the key is counted; the public host and loopback work', async () => {
    const before = await fetch(`${api.url}/api/v1/agents/status`, withKey(key));
    const left = Number(before.headers.get('x-ratelimit-remaining'));
    const rebound = await mcp(api, list(1), { host: 'evil.example.com', 'x-api-key': key });
    assert.equal(rebound.status, 403);
    assert.equal(rebound.json.error.data.code, 'HOST_NOT_ALLOWED');
    const foreign = await mcp(api, list(1), { host: 'data.example.com', origin: 'https://evil.example.com' });
    assert.equal(foreign.json.error.data.code, 'ORIGIN_NOT_ALLOWED');
    const after = await fetch(`${api.url}/api/v1/agents/status`, withKey(key));
    assert.equal(Number(after.headers.get('x-ratelimit-remaining')), left - 1, 'the refused request was not counted');

    for (const headers of [
      { host: 'data.example.com' } as Record<string, string>,
      { host: 'data.example.com:8443', origin: 'https://data.example.com' },
      { host: new URL(api.url).host },
      { host: `localhost:${new URL(api.url).port}` },
    ])
      assert.equal((await mcp(api, list(1), headers)).status, 200, JSON.stringify(headers));
  });
});
