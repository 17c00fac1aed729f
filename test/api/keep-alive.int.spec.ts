import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createAccountWithKey } from '../platform/support/platform-fixtures.js';
import { keepAliveClient, keepAliveSoak } from '../bench/support/keep-alive-soak.js';
import { startTestApi, type TestApi } from './support/test-api.js';

// Clients saw reset connections. A server that closes an idle kept-alive connection
// before its client does races the client's next request: a client whose event loop was busy
// cannot see the close in time and writes into it. The server keeps idle connections longer
// than proxies and client pools do (72 s) and says so (Keep-Alive: timeout=72).
describe('kept-alive connections (default server settings)', () => {
  let api: TestApi;
  let url: string;
  let headers: Record<string, string>;

  before(async () => {
    api = await startTestApi();
    const { key } = await createAccountWithKey(api.app, {
      plan: 'enterprise',
      perMinute: 1_000_000,
      perHour: 1_000_000,
      scopes: ['read'],
    });
    url = `${api.url}/v1/repositories`;
    headers = { authorization: `Bearer ${key}` };
  });
  after(async () => {
    await api?.close();
  });

  it('tells clients how long an idle connection is kept', async () => {
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    assert.equal(res.headers.get('connection'), 'keep-alive');
    assert.equal(res.headers.get('keep-alive'), 'timeout=72');
  });

  it('answers a client that was busy for 7 s between two requests', async () => {
    const report = await keepAliveClient({ url, headers, gaps: [{ ms: 7_000, busy: true }] });
    assert.deepEqual(report, { requests: 2, failures: [] });
  });

  it('a short soak: keep-alive clients with random idle and busy gaps beside load, no socket error', async () => {
    const result = await keepAliveSoak({
      url,
      headers,
      clients: 4,
      seconds: 8,
      maxGapMs: 3_000,
      firstGapMs: 6_500,
      loadConnections: 2,
      loadRate: 300,
      seed: 28,
    });
    assert.deepEqual(result.failures, []);
    assert.ok(result.requests >= 8, `${result.requests} client requests`);
    assert.equal(result.load.errors, 0);
    assert.equal(result.load.non2xx, 0);
    assert.ok(result.load['2xx'] > 0);
  });
});
