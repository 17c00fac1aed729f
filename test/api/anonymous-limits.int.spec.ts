import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Controller, Module, Post } from '@nestjs/common';
import { AnonymousLimit } from '#access';
import { FakeClock } from '#kernel';
import { startTestApi, type TestApi } from './support/test-api.js';
import { csrfToken, FormClient } from '../platform/support/form-client.js';
import { createUser, TEST_PASSWORD } from '../platform/support/users-fixtures.js';

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

  it('counts each forwarded client apart, and what their addresses allowed against the ceiling', async () => {
    const from = (ip: string) => post(api, 'write', { 'x-forwarded-for': ip });
    assert.deepEqual(
      [(await from('198.51.100.1')).status, (await from('198.51.100.1')).status, (await from('198.51.100.1')).status],
      [201, 201, 429],
    );
    assert.equal((await from('198.51.100.2')).status, 201, 'another client has its own budget');
    assert.equal((await from('198.51.100.3')).status, 201);
    // The refused one is not counted in all (ADR 0072): one more fits under the ceiling of 5.
    assert.equal((await from('198.51.100.4')).status, 201);
    const ceiling = await from('198.51.100.5');
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

describe("one address's flood closes no door for the others (ADR 0072)", () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi({
      clock: new FakeClock('2026-11-02T10:00:05.000Z'),
      env: {
        SVC_TRUSTED_PROXIES: '127.0.0.1',
        SVC_ANONYMOUS_WRITE_LIMIT_PER_MINUTE: '3',
        SVC_SIGNUP_LIMIT_PER_HOUR: '2',
        SVC_SIGN_IN_LIMIT_PER_MINUTE: '4',
        SVC_ANONYMOUS_GLOBAL_LIMIT_PER_MINUTE: '12',
      },
    });
    await createUser(api.app, { email: 'ada@example.com' });
  });
  after(async () => {
    await api?.close();
  });

  const json = (path: string, ip: string, body: unknown) =>
    fetch(`${api.url}/api/v1/agents/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
      body: JSON.stringify(body),
    });
  const lead = (ip: string) => json('leads', ip, { contact_email: 'pilot@example.com' });
  /** A browser at `ip` that opens the sign-in form and sends it. */
  const signIn = async (ip: string, email: string, password: string) => {
    const browser = new FormClient(api.url);
    const token = csrfToken((await browser.get('/login', { 'x-forwarded-for': ip })).body);
    return browser.post('/login', { _csrf: token, email, password }, { 'x-forwarded-for': ip });
  };

  it('a flood of writes from one address is refused there: others still sign in, pay, sign up and send leads', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await lead('198.51.100.1')).status);
    assert.deepEqual(statuses.slice(0, 3), [201, 201, 201]);
    assert.ok(
      statuses.slice(3).every((s) => s === 429),
      `refused past its limit: ${statuses.join(',')}`,
    );
    // 40 sent, 3 counted in all: far under the ceiling of 12 for everyone else.
    const signedIn = await signIn('198.51.100.2', 'ada@example.com', TEST_PASSWORD);
    assert.deepEqual([signedIn.status, signedIn.headers.get('location')], [303, '/dashboard'], signedIn.body);
    assert.equal((await json('pay', '198.51.100.3', {})).status, 201);
    assert.equal((await json('signup', '198.51.100.4', { contact_email: 'a@example.com' })).status, 201);
    assert.equal((await lead('198.51.100.5')).status, 201);
  });

  it("sign-in has its own budget per address: a flood of it closes neither the writes nor anyone else's sign-in", async () => {
    const statuses: number[] = [];
    // Other emails each time: the per-email throttle stays out of it.
    for (let i = 0; i < 10; i++) statuses.push((await signIn('198.51.100.6', `guess${i}@example.com`, 'wrong')).status);
    assert.deepEqual(statuses, [422, 422, 422, 422, 429, 429, 429, 429, 429, 429]);
    const refused = await signIn('198.51.100.6', 'ada@example.com', TEST_PASSWORD);
    assert.equal(refused.status, 429);
    assert.match(refused.body, /Too many requests from your address/);
    assert.equal((await lead('198.51.100.6')).status, 201, 'its anonymous writes are counted apart');
    const other = await signIn('198.51.100.7', 'ada@example.com', TEST_PASSWORD);
    assert.equal(other.status, 303, other.body);
  });

  it('writes from many addresses reach the ceiling; sign-in stays open', async () => {
    // 7 counted so far (3 + pay + signup + 2 leads); 5 more addresses fill the ceiling of 12.
    for (let i = 10; i < 15; i++) assert.equal((await lead(`198.51.100.${i}`)).status, 201, `client ${i}`);
    const ceiling = await lead('198.51.100.20');
    assert.equal(ceiling.status, 429);
    assert.match(((await ceiling.json()) as { message: string }).message, /all clients together/);
    const signedIn = await signIn('198.51.100.21', 'ada@example.com', TEST_PASSWORD);
    assert.equal(signedIn.status, 303, signedIn.body);
  });
});
