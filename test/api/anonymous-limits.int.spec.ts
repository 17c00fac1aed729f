import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Controller, Module, Post } from '@nestjs/common';
import { AnonymousLimit } from '#access';
import { FakeClock } from '#kernel';
import { startTestApi, type TestApi } from './support/test-api.js';

@Controller('test/anonymous')
class AnonymousRoutes {
  @Post('signup')
  @AnonymousLimit('signup')
  signup(): { ok: true } {
    return { ok: true };
  }

  @Post('write')
  @AnonymousLimit('write')
  write(): { ok: true } {
    return { ok: true };
  }
}

@Module({ controllers: [AnonymousRoutes] })
class AnonymousRoutesModule {}

const post = (api: TestApi, path: string, headers: Record<string, string> = {}) =>
  fetch(`${api.url}/test/anonymous/${path}`, { method: 'POST', headers });

describe('anonymous writes are limited per client address and in all (OWASP API4)', () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi({
      imports: [AnonymousRoutesModule],
      // Fixed windows on a stopped clock: a slow run never crosses a minute and resets a count.
      clock: new FakeClock('2026-11-02T10:00:05.000Z'),
      env: {
        SVC_SIGNUP_LIMIT_PER_HOUR: '2',
        SVC_ANONYMOUS_WRITE_LIMIT_PER_MINUTE: '3',
        SVC_ANONYMOUS_GLOBAL_LIMIT_PER_MINUTE: '1000',
      },
    });
  });
  after(async () => {
    await api?.close();
  });

  it('refuses the signup past the hourly limit with 429, Retry-After and next actions', async () => {
    assert.equal((await post(api, 'signup')).status, 201);
    assert.equal((await post(api, 'signup')).status, 201);
    const refused = await post(api, 'signup');
    assert.equal(refused.status, 429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    assert.equal(retryAfter, 3595, 'the rest of the hour window (the clock stands at 10:00:05)');
    const body = (await refused.json()) as {
      code: string;
      retry_after: number;
      next_actions: Array<{ action: string }>;
    };
    assert.equal(body.code, 'RATE_LIMIT_EXCEEDED');
    assert.equal(body.retry_after, retryAfter);
    assert.deepEqual(
      body.next_actions.map((a) => a.action),
      ['retry_later', 'use_existing_key'],
    );
  });

  it('counts other writes per minute apart from signups', async () => {
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await post(api, 'write')).status);
    assert.deepEqual(statuses, [201, 201, 201, 429]);
  });

  it('a client cannot reset its count with its own X-Forwarded-For (no trusted proxy configured)', async () => {
    const spoofed = await post(api, 'write', { 'x-forwarded-for': '203.0.113.7' });
    assert.equal(spoofed.status, 429);
  });
});

describe('behind a trusted proxy the client address comes from X-Forwarded-For; a global ceiling holds', () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi({
      imports: [AnonymousRoutesModule],
      clock: new FakeClock('2026-11-02T10:00:05.000Z'),
      env: {
        SVC_TRUSTED_PROXIES: '127.0.0.1',
        SVC_ANONYMOUS_WRITE_LIMIT_PER_MINUTE: '2',
        SVC_ANONYMOUS_GLOBAL_LIMIT_PER_MINUTE: '5',
      },
    });
  });
  after(async () => {
    await api?.close();
  });

  it('counts each forwarded client apart, and all of them against the ceiling', async () => {
    const from = (ip: string) => post(api, 'write', { 'x-forwarded-for': ip });
    assert.deepEqual(
      [(await from('198.51.100.1')).status, (await from('198.51.100.1')).status, (await from('198.51.100.1')).status],
      [201, 201, 429],
    );
    assert.equal((await from('198.51.100.2')).status, 201, 'another client has its own budget');
    assert.equal((await from('198.51.100.3')).status, 201);
    // 5 counted in all (the refused one included): the next client meets the ceiling.
    const ceiling = await from('198.51.100.4');
    assert.equal(ceiling.status, 429);
    assert.match(((await ceiling.json()) as { message: string }).message, /all clients together/);
  });
});

describe("the agent surface's anonymous writes carry the limits", () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi({
      clock: new FakeClock('2026-11-02T10:00:05.000Z'),
      env: { SVC_SIGNUP_LIMIT_PER_HOUR: '2', SVC_ANONYMOUS_WRITE_LIMIT_PER_MINUTE: '2' },
    });
  });
  after(async () => {
    await api?.close();
  });

  it('POST /agents/pay and /agents/signup share the signup budget: the third account in the hour is refused', async () => {
    const pay = () =>
      fetch(`${api.url}/api/v1/agents/pay`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
    const signup = () =>
      fetch(`${api.url}/api/v1/agents/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ contact_email: 'a@example.com' }),
      });
    const answers = [await pay(), await signup(), await pay()];
    assert.deepEqual(
      answers.slice(0, 2).map((r) => r.status),
      [201, 201],
    );
    assert.equal(answers[2]!.status, 429);
    const body = (await answers[2]!.json()) as { code: string; next_actions: unknown[]; type?: string };
    assert.equal(body.code, 'RATE_LIMIT_EXCEEDED');
    assert.ok(body.next_actions.length > 0);
    assert.ok(answers[2]!.headers.get('retry-after'));
  });

  it('checkout links without a key are counted as anonymous writes', async () => {
    const link = () =>
      fetch(`${api.url}/api/v1/agents/checkout-link?pack_id=pack_29`, {
        headers: { accept: 'application/json' },
        redirect: 'manual',
      });
    const statuses = [(await link()).status, (await link()).status, (await link()).status];
    assert.notEqual(statuses[0], 429);
    assert.equal(statuses[2], 429);
  });
});
