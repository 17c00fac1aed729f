import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FakeClock } from '#kernel';
import { startTestApi, type TestApi } from '../api/support/test-api.js';
import { bearer, changePlan, createAccountWithKey, createKey } from './support/platform-fixtures.js';

type Body = Record<string, unknown>;

const epoch = (iso: string) => String(Date.parse(iso) / 1000);

describe('platform rate limits per account (D7; fake clock, real HTTP)', () => {
  let api: TestApi;
  const clock = new FakeClock('2026-03-01T10:00:15.000Z');
  before(async () => {
    api = await startTestApi({ clock });
  });
  after(async () => {
    await api?.close();
  });

  const get = (key: string, path = '/v1/repositories') => fetch(`${api.url}${path}`, { headers: bearer(key) });

  it('a Free account gets 60 requests a minute; the 61st is 429 with retry_after; the next window resets', async () => {
    clock.set('2026-03-01T10:00:15.000Z');
    const free = await createAccountWithKey(api.app, { plan: 'free', scopes: ['read'] });
    for (let i = 1; i <= 60; i++) {
      const res = await get(free.key);
      assert.equal(res.status, 200, `request ${i}`);
      assert.equal(res.headers.get('x-ratelimit-limit'), '60');
      assert.equal(res.headers.get('x-ratelimit-remaining'), String(60 - i));
      assert.equal(res.headers.get('x-ratelimit-reset'), epoch('2026-03-01T10:01:00Z'));
      await res.arrayBuffer();
    }
    const refused = await get(free.key);
    assert.equal(refused.status, 429);
    assert.match(refused.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(refused.headers.get('retry-after'), '45');
    assert.equal(refused.headers.get('x-ratelimit-limit'), '60');
    assert.equal(refused.headers.get('x-ratelimit-remaining'), '0');
    assert.equal(refused.headers.get('x-ratelimit-reset'), epoch('2026-03-01T10:01:00Z'));
    const body = (await refused.json()) as Body;
    assert.deepEqual(Object.keys(body).sort(), ['code', 'error', 'message', 'retry_after']);
    assert.equal(body.error, 'rate_limit_exceeded');
    assert.equal(body.retry_after, 45);
    assert.equal(typeof body.message, 'string');

    // Still refused later in the same window, with a shorter wait.
    clock.set('2026-03-01T10:00:50.000Z');
    const later = await get(free.key);
    assert.equal(later.status, 429);
    assert.equal(((await later.json()) as Body).retry_after, 10);

    // The minute window resets on the minute; the hour window counted all of them.
    clock.set('2026-03-01T10:01:00.000Z');
    const next = await get(free.key);
    assert.equal(next.status, 200);
    assert.equal(next.headers.get('x-ratelimit-limit'), '60');
    assert.equal(next.headers.get('x-ratelimit-remaining'), '59');
    assert.equal(next.headers.get('x-ratelimit-reset'), epoch('2026-03-01T10:02:00Z'));
  });

  it('errors after authentication count too, and a 429 stops even a route the key may not use', async () => {
    clock.set('2026-03-01T11:00:00.000Z');
    const free = await createAccountWithKey(api.app, { plan: 'free', scopes: ['read'] });
    for (let i = 0; i < 60; i++) {
      const res = await get(free.key, '/v1/api-keys'); // 403: read lacks admin
      assert.equal(res.status, 403);
      assert.equal(res.headers.get('x-ratelimit-remaining'), String(59 - i));
      await res.arrayBuffer();
    }
    assert.equal((await get(free.key, '/v1/api-keys')).status, 429);
  });

  it('all keys of an account share its budget; another account is unaffected', async () => {
    clock.set('2026-03-01T12:00:00.000Z');
    const shared = await createAccountWithKey(api.app, { plan: 'free', scopes: ['read'] });
    const second = await createKey(api.app, shared.accountId, { scopes: ['read'] });
    const other = await createAccountWithKey(api.app, { plan: 'free', scopes: ['read'] });
    for (let i = 0; i < 60; i++) {
      const res = await get(i % 2 === 0 ? shared.key : second.key);
      assert.equal(res.status, 200);
      await res.arrayBuffer();
    }
    assert.equal((await get(shared.key)).status, 429);
    assert.equal((await get(second.key)).status, 429);
    const unaffected = await get(other.key);
    assert.equal(unaffected.status, 200);
    assert.equal(unaffected.headers.get('x-ratelimit-remaining'), '59');
  });

  it('Team has 300/min; an Enterprise account has its own limits; the header shows the tighter window', async () => {
    clock.set('2026-03-01T13:00:00.000Z');
    const team = await createAccountWithKey(api.app, { plan: 'team', scopes: ['read'] });
    const t = await get(team.key);
    assert.equal(t.headers.get('x-ratelimit-limit'), '300');
    const enterprise = await createAccountWithKey(api.app, {
      plan: 'enterprise',
      perMinute: 5,
      perHour: 7,
      scopes: ['read'],
    });
    for (let i = 0; i < 5; i++) assert.equal((await get(enterprise.key)).status, 200);
    assert.equal((await get(enterprise.key)).status, 429);
    clock.set('2026-03-01T13:01:00.000Z');
    // 7 of 7 counted this hour (the refused request counts too): the hour window is the tighter one.
    const res = await get(enterprise.key);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-ratelimit-limit'), '7');
    assert.equal(res.headers.get('x-ratelimit-remaining'), '0');
    assert.equal(res.headers.get('x-ratelimit-reset'), epoch('2026-03-01T14:00:00Z'));
    const hourly = await get(enterprise.key);
    assert.equal(hourly.status, 429);
    assert.equal(hourly.headers.get('retry-after'), String(59 * 60));
  });

  it('a plan change applies at once', async () => {
    clock.set('2026-03-01T15:00:00.000Z');
    const account = await createAccountWithKey(api.app, { plan: 'free', scopes: ['read'] });
    assert.equal((await get(account.key)).headers.get('x-ratelimit-limit'), '60');
    await changePlan(api.app, account.accountId, 'team');
    assert.equal((await get(account.key)).headers.get('x-ratelimit-limit'), '300');
  });
});
