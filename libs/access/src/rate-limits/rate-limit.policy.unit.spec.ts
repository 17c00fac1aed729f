import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock } from '#kernel';
import { InMemoryRateLimitStore } from './in-memory-rate-limit.adapter.js';
import {
  accountUsage,
  checkKeyRateLimit,
  checkRateLimit,
  enforceDecision,
  rateLimitExceeded,
} from './rate-limit.policy.js';
import type { RateLimitStore } from './rate-limit.port.js';

const free = { per_minute: 60, per_hour: 1000 };

describe('rate limit policy (D7)', () => {
  it("an account's usage is what its requests counted in the current windows, read without counting", async () => {
    const clock = new FakeClock('2026-03-01T10:59:15Z');
    const store = new InMemoryRateLimitStore();
    const empty = await accountUsage(store, 'acct_1', clock.now());
    assert.deepEqual(empty, {
      per_minute: { used: 0, resets_at: '2026-03-01T11:00:00.000Z' },
      per_hour: { used: 0, resets_at: '2026-03-01T11:00:00.000Z' },
    });
    for (let i = 0; i < 3; i++) await checkRateLimit(store, 'acct_1', free, clock.now());
    await checkRateLimit(store, 'acct_2', free, clock.now());
    assert.equal((await accountUsage(store, 'acct_1', clock.now())).per_hour.used, 3);
    assert.equal((await accountUsage(store, 'acct_1', clock.now())).per_minute.used, 3, 'reading counts nothing');
    clock.advance(60_000);
    const nextHour = await accountUsage(store, 'acct_1', clock.now());
    assert.deepEqual([nextHour.per_minute.used, nextHour.per_hour.used], [0, 0]);
    assert.equal(nextHour.per_hour.resets_at, '2026-03-01T12:00:00.000Z');
  });

  it('lets 60 requests of a Free account through in a minute and refuses the 61st with retry_after', async () => {
    const clock = new FakeClock('2026-03-01T10:00:15Z');
    const store = new InMemoryRateLimitStore();
    for (let i = 1; i <= 60; i++) {
      const d = await checkRateLimit(store, 'acct_1', free, clock.now());
      assert.equal(d.allowed, true);
      assert.equal(d.headers['X-RateLimit-Remaining'], String(60 - i));
      assert.equal(d.headers['X-RateLimit-Limit'], '60');
      assert.equal(d.headers['X-RateLimit-Reset'], String(Date.parse('2026-03-01T10:01:00Z') / 1000));
    }
    const refused = await checkRateLimit(store, 'acct_1', free, clock.now());
    assert.equal(refused.allowed, false);
    assert.equal(refused.retryAfter, 45);
    const error = rateLimitExceeded(refused);
    assert.equal(error.kind, 'rate_limited');
    assert.equal(error.code, 'RATE_LIMIT_EXCEEDED');
    assert.equal(error.message, 'Rate limit exceeded. Retry in 45 seconds.');
    assert.deepEqual(error.extra, { retry_after: 45 });
    // The window's counters, for the transport (HTTP headers, MCP _meta).
    assert.deepEqual(error.facts, refused.headers);

    clock.set('2026-03-01T10:01:00Z');
    const next = await checkRateLimit(store, 'acct_1', free, clock.now());
    assert.equal(next.allowed, true);
    assert.equal(next.headers['X-RateLimit-Remaining'], '59');
  });

  it('reports the hour window when it has fewer requests left, and refuses until the hour ends', async () => {
    const clock = new FakeClock('2026-03-01T10:00:00Z');
    const store = new InMemoryRateLimitStore();
    const tight = { per_minute: 100, per_hour: 150 };
    for (let i = 0; i < 100; i++) await checkRateLimit(store, 'acct_1', tight, clock.now());
    clock.advance(60_000);
    let d = await checkRateLimit(store, 'acct_1', tight, clock.now());
    assert.equal(d.headers['X-RateLimit-Limit'], '150');
    assert.equal(d.headers['X-RateLimit-Remaining'], '49');
    for (let i = 0; i < 49; i++) d = await checkRateLimit(store, 'acct_1', tight, clock.now());
    assert.equal(d.allowed, true);
    d = await checkRateLimit(store, 'acct_1', tight, clock.now());
    assert.equal(d.allowed, false);
    assert.equal(d.retryAfter, 3600 - 60);
  });

  it('counts per account: another account is unaffected', async () => {
    const clock = new FakeClock('2026-03-01T10:00:00Z');
    const store = new InMemoryRateLimitStore();
    for (let i = 0; i < 61; i++) await checkRateLimit(store, 'acct_1', free, clock.now());
    const other = await checkRateLimit(store, 'acct_2', free, clock.now());
    assert.equal(other.allowed, true);
    assert.equal(other.headers['X-RateLimit-Remaining'], '59');
  });

  it('decides the same through a store that answers with a promise (MongoDB), and puts the headers on when it comes', async () => {
    const clock = new FakeClock('2026-03-01T10:00:15Z');
    const memory = new InMemoryRateLimitStore();
    const remote: RateLimitStore = {
      hit: async (key, seconds, now) => memory.hit(key, seconds, now),
      count: async (key, seconds, now) => memory.count(key, seconds, now),
      close: () => memory.close(),
    };
    const headers: Record<string, string> = {};
    const reply = { header: (name: string, value: string) => (headers[name] = value) };
    for (let i = 1; i <= 2; i++) {
      const pending = enforceDecision(checkKeyRateLimit(remote, 'key_1', 2, clock.now()), reply);
      assert.ok(pending instanceof Promise, 'a decision still to come');
      await pending;
      assert.equal(headers['X-RateLimit-Remaining'], String(2 - i));
    }
    await assert.rejects(
      enforceDecision(checkKeyRateLimit(remote, 'key_1', 2, clock.now()), reply)!,
      (e: { kind?: string }) => e.kind === 'rate_limited',
    );
    assert.equal(headers['X-RateLimit-Remaining'], '0', 'the headers go on a refusal too');
    // The in-memory store decides at once: no promise.
    assert.equal(enforceDecision(checkKeyRateLimit(memory, 'key_2', 2, clock.now()), reply), undefined);
  });
});
