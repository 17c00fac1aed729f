import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FakeClock } from '#kernel';
import { startTestApi, type TestApi } from '../api/support/test-api.js';
import { pay, withKey } from './support/agent-client.js';
import { PaidRoutesModule } from './support/paid-routes.module.js';

// D7 on the agent surface: a per-minute budget per key (3 here), on a fake clock.
describe('agent rate limit per key (real HTTP, fake clock)', () => {
  let api: TestApi;
  // 30 s into a minute, so the window resets 30 s later.
  const clock = new FakeClock('2026-03-01T10:00:30.000Z');
  before(async () => {
    api = await startTestApi({ imports: [PaidRoutesModule], clock, env: { SVC_AGENT_RATE_LIMIT_PER_MINUTE: '3' } });
  });
  after(async () => {
    await api?.close();
  });

  it('counts each key: headers on every answer, the 4th request in a minute gets 429 with Retry-After, free; the next minute works', async () => {
    const first = await pay(api.url);
    const second = await pay(api.url);
    const keys = (key: string) => fetch(`${api.url}/api/v1/agents/keys`, withKey(key));

    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await keys(first.key.api_key);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('x-ratelimit-limit'), '3');
      assert.equal(res.headers.get('x-ratelimit-reset'), String(Date.parse('2026-03-01T10:01:00.000Z') / 1000));
      remaining.push(res.headers.get('x-ratelimit-remaining')!);
    }
    assert.deepEqual(remaining, ['2', '1', '0']);

    // A paid route is refused before any hold or charge: the balance is untouched.
    const refused = await fetch(`${api.url}/api/v1/test-paid/discovery`, withKey(first.key.api_key));
    assert.equal(refused.status, 429);
    assert.match(refused.headers.get('content-type') ?? '', /^application\/problem\+json/);
    assert.equal(refused.headers.get('retry-after'), '30');
    assert.equal(refused.headers.get('x-ratelimit-remaining'), '0');
    assert.equal(refused.headers.get('x-credits-charged'), null);
    const body = (await refused.json()) as { error: string; code: string; retry_after: number; status: number };
    assert.equal(body.error, 'rate_limit_exceeded');
    assert.equal(body.code, 'RATE_LIMIT_EXCEEDED');
    assert.equal(body.retry_after, 30);
    assert.equal(body.status, 429);

    // Another key has its own budget.
    const other = await keys(second.key.api_key);
    assert.equal(other.status, 200);
    assert.equal(other.headers.get('x-ratelimit-remaining'), '2');

    clock.advance(30_000);
    const nextMinute = await keys(first.key.api_key);
    assert.equal(nextMinute.status, 200);
    assert.equal(nextMinute.headers.get('x-ratelimit-remaining'), '2');
  });

  it('requests without a key are not counted against anyone (401 first)', async () => {
    const res = await fetch(`${api.url}/api/v1/agents/keys`);
    assert.equal(res.status, 401);
    assert.equal(res.headers.get('x-ratelimit-limit'), null);
  });

  it('GET /agents/status with a key counts against that key (it used to be free): the 4th in a minute is 429', async () => {
    const issued = await pay(api.url);
    const status = () => fetch(`${api.url}/api/v1/agents/status`, withKey(issued.key.api_key));
    const answers = [await status(), await status(), await status(), await status()];
    assert.deepEqual(
      answers.map((r) => r.status),
      [200, 200, 200, 429],
    );
    assert.deepEqual(
      answers.slice(0, 3).map((r) => r.headers.get('x-ratelimit-remaining')),
      ['2', '1', '0'],
    );
    // Without a key the public status is not counted against anyone.
    const anonymous = await fetch(`${api.url}/api/v1/agents/status`);
    assert.equal(anonymous.status, 200);
    assert.equal(anonymous.headers.get('x-ratelimit-limit'), null);
  });
});
