import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { FakeClock } from '#kernel';
import { DOCUMENT_STORE, type DocumentStore } from '#documents';
import {
  EMAIL_MAX_WAIT_MS,
  EMAIL_SLOW_AFTER_ATTEMPTS,
  LOCK_AFTER_ATTEMPTS,
  LOCK_MS,
  SESSION_ABSOLUTE_MS,
  SESSION_IDLE_MS,
  SESSIONS_COLLECTION,
} from '#identity';
import { startTestApi, type TestApi } from '../api/support/test-api.js';
import { csrfToken, FormClient, type PageResponse } from './support/form-client.js';
import { createUser, TEST_PASSWORD } from './support/users-fixtures.js';

const cookieLine = (page: PageResponse, name: string) => page.setCookies.find((l) => l.startsWith(`${name}=`));

describe('sign-in pages (/login, /logout, /dashboard)', () => {
  let api: TestApi;
  const clock = new FakeClock('2026-03-01T10:00:00.000Z');
  let user: Awaited<ReturnType<typeof createUser>>;
  before(async () => {
    api = await startTestApi({ clock });
    user = await createUser(api.app, { email: 'Ada@Example.com' });
  });
  after(async () => {
    await api?.close();
  });

  it('serves a form with labelled Email and Password fields, a token, and no caching or framing', async () => {
    const page = await new FormClient(api.url).get('/login');
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html; charset=utf-8/);
    assert.equal(page.headers.get('cache-control'), 'no-store');
    assert.match(page.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
    assert.match(page.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    assert.match(page.body, /^<!doctype html>\s*<html lang="en">/);
    assert.match(page.body, /<title>Sign in · svc<\/title>/);
    assert.match(page.body, /<label for="email">Email<\/label>\s*<input\s+id="email"\s+name="email"\s+type="email"/);
    assert.match(
      page.body,
      /<label for="password">Password<\/label>\s*<input\s+id="password"\s+name="password"\s+type="password"/,
    );
    assert.match(page.body, /<button type="submit">Sign in<\/button>/);
    assert.ok(csrfToken(page.body));
    assert.match(cookieLine(page, 'svc_csrf') ?? '', /^svc_csrf=[^;]+; Path=\/; HttpOnly; SameSite=Lax$/);
  });

  it('signs in (any case of the email), sets an HttpOnly SameSite=Lax session cookie, and shows the dashboard', async () => {
    const browser = new FormClient(api.url);
    const answer = await browser.signIn('ada@EXAMPLE.com', TEST_PASSWORD);
    assert.equal(answer.status, 303, answer.body);
    assert.equal(answer.headers.get('location'), '/dashboard');
    const line = cookieLine(answer, 'svc_session');
    assert.match(line ?? '', /^svc_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax$/, 'no Secure over http');
    assert.doesNotMatch(line ?? '', /Max-Age|Expires/i, 'the server ends the session, not the browser');

    const dashboard = await browser.get('/dashboard');
    assert.equal(dashboard.status, 200);
    assert.match(dashboard.body, /Signed in as <strong>Ada@Example.com<\/strong> \(admin\)/);
    assert.match(dashboard.body, /<form method="post" action="\/logout">/);
    assert.equal(dashboard.headers.get('cache-control'), 'no-store');

    // Only the token's SHA-256 is stored.
    const token = browser.cookies.get('svc_session')!;
    const sessions = api.app.get<DocumentStore>(DOCUMENT_STORE).collection(SESSIONS_COLLECTION);
    assert.equal(await sessions.get(token), null);
    const stored = await sessions.get(createHash('sha256').update(token).digest('hex'));
    assert.equal(stored?.user_id, user.userId);
    assert.ok(!JSON.stringify(stored).includes(token));

    // Signed in already: /login goes straight on.
    const again = await browser.get('/login');
    assert.deepEqual([again.status, again.headers.get('location')], [303, '/dashboard']);
  });

  it('answers an unknown email and a wrong password identically', async () => {
    const browser = new FormClient(api.url);
    const page = await browser.get('/login');
    const token = csrfToken(page.body);
    const attempt = (email: string) =>
      browser.post('/login', { _csrf: token, email, password: 'not the password at all' });
    // Two addresses of one length: the form shows the typed address again.
    const [wrong, unknown] = [await attempt('ada@example.com'), await attempt('bob@example.com')];
    assert.equal(wrong.status, 422);
    assert.equal(unknown.status, wrong.status);
    const comparable = (p: PageResponse) => ({
      headers: [...p.headers].filter(([k]) => !['date', 'x-request-id'].includes(k)),
      body: p.body.replace(/value="(ada|bob)@example\.com"/, 'value="EMAIL"'),
    });
    assert.deepEqual(comparable(unknown), comparable(wrong));
    assert.match(wrong.body, /<p class="notice" role="alert" id="sign-in-error">Wrong email or password\.<\/p>/);
    assert.equal(wrong.setCookies.length, 0);
  });

  it('goes back to a safe `next` after signing in, never to another site', async () => {
    const anonymous = new FormClient(api.url);
    const bounced = await anonymous.get('/dashboard?tab=keys');
    assert.deepEqual([bounced.status, bounced.headers.get('location')], [303, '/login?next=%2Fdashboard%3Ftab%3Dkeys']);
    const form = await anonymous.get('/login?next=%2Fdashboard%3Ftab%3Dkeys');
    assert.match(form.body, /<input type="hidden" name="next" value="\/dashboard\?tab=keys" \/>/);

    const back = await new FormClient(api.url).signIn('ada@example.com', TEST_PASSWORD, '/dashboard?tab=keys');
    assert.equal(back.headers.get('location'), '/dashboard?tab=keys');
    for (const evil of ['https://evil.example/', '//evil.example/', '/\\evil.example']) {
      const answer = await new FormClient(api.url).signIn('ada@example.com', TEST_PASSWORD, evil);
      assert.deepEqual([answer.status, answer.headers.get('location')], [303, '/dashboard'], evil);
    }
  });

  // Dot segments and their encodings become `//evil.example` only once normalised.
  const hostileNext = [
    '/..//evil.example/phish',
    '/%2e%2e//evil.example/phish',
    '/./..//evil.example',
    '/\t/evil.example',
  ];

  it('never sends a signed-in browser from /login to another site (open redirect)', async () => {
    const browser = new FormClient(api.url);
    await browser.signIn('ada@example.com', TEST_PASSWORD);
    for (const evil of hostileNext) {
      const answer = await browser.get(`/login?next=${encodeURIComponent(evil)}`);
      assert.deepEqual([answer.status, answer.headers.get('location')], [303, '/dashboard'], evil);
    }
    // Unencoded in the query string, as a link would carry it.
    const raw = await browser.get('/login?next=/..//evil.example');
    assert.deepEqual([raw.status, raw.headers.get('location')], [303, '/dashboard']);
  });

  it('neither carries a hostile `next` in the form nor follows it after a good password', async () => {
    for (const evil of hostileNext) {
      const form = await new FormClient(api.url).get(`/login?next=${encodeURIComponent(evil)}`);
      assert.equal(form.status, 200);
      assert.equal(/name="next"/.test(form.body), false, `the form carries ${evil}`);
      // Posted as the field itself: a hostile page may post any `next` it likes.
      const answer = await new FormClient(api.url).signIn('ada@example.com', TEST_PASSWORD, evil);
      assert.deepEqual([answer.status, answer.headers.get('location')], [303, '/dashboard'], evil);
    }
  });

  it('ends a session after 8 idle hours, each request moving the end (sliding)', async () => {
    const browser = new FormClient(api.url);
    await browser.signIn('ada@example.com', TEST_PASSWORD);
    clock.advance(SESSION_IDLE_MS - 60_000);
    assert.equal((await browser.get('/dashboard')).status, 200);
    clock.advance(SESSION_IDLE_MS - 60_000);
    assert.equal((await browser.get('/dashboard')).status, 200, 'the previous request moved the end');
    clock.advance(SESSION_IDLE_MS);
    const expired = await browser.get('/dashboard');
    assert.deepEqual([expired.status, expired.headers.get('location')], [303, '/login?next=%2Fdashboard']);
  });

  it('ends a session 7 days after sign-in however active it is (absolute lifetime)', async () => {
    const browser = new FormClient(api.url);
    await browser.signIn('ada@example.com', TEST_PASSWORD);
    // A request every 7 hours keeps it from idling out, up to the absolute end.
    let elapsed = 0;
    const step = SESSION_IDLE_MS - 3600_000;
    while (elapsed + step < SESSION_ABSOLUTE_MS) {
      clock.advance(step);
      elapsed += step;
      assert.equal((await browser.get('/dashboard')).status, 200, `active after ${elapsed / 3600_000} h`);
    }
    clock.advance(SESSION_ABSOLUTE_MS - elapsed);
    const ended = await browser.get('/dashboard');
    assert.deepEqual([ended.status, ended.headers.get('location')], [303, '/login?next=%2Fdashboard']);
  });

  it('signs out: the session ends on the server, the cookie is cleared, and a new sign-in gets a new session', async () => {
    const browser = new FormClient(api.url);
    await browser.signIn('ada@example.com', TEST_PASSWORD);
    const first = browser.cookies.get('svc_session')!;
    // Signing in again from the same browser replaces its session.
    const token = csrfToken((await browser.get('/dashboard')).body);
    const again = await browser.post('/login', { _csrf: token, email: 'ada@example.com', password: TEST_PASSWORD });
    assert.equal(again.status, 303);
    const second = browser.cookies.get('svc_session')!;
    assert.notEqual(second, first);
    const stale = new FormClient(api.url);
    stale.cookies.set('svc_session', first);
    assert.equal((await stale.get('/dashboard')).status, 303, 'the earlier session ended');

    const dashboard = await browser.get('/dashboard');
    const out = await browser.post('/logout', { _csrf: csrfToken(dashboard.body) });
    assert.deepEqual([out.status, out.headers.get('location')], [303, '/login?signed_out=1']);
    assert.match(
      cookieLine(out, 'svc_session') ?? '',
      /^svc_session=; Max-Age=0; Path=\/; Expires=[^;]+; HttpOnly; SameSite=Lax$/,
    );
    const replay = new FormClient(api.url);
    replay.cookies.set('svc_session', second);
    assert.equal((await replay.get('/dashboard')).status, 303, 'the cookie value no longer opens anything');
    assert.match((await browser.get('/login?signed_out=1')).body, /You are signed out\./);
  });

  it('slows repeated failures for one email, then refuses it for 15 minutes (429), known or not', async () => {
    for (const email of ['locked@example.com', 'nobody-at-all@example.com']) {
      if (email === 'locked@example.com') await createUser(api.app, { email });
      const browser = new FormClient(api.url);
      const token = csrfToken((await browser.get('/login')).body);
      const attempt = (password: string) => browser.post('/login', { _csrf: token, email, password });
      const statuses: number[] = [];
      for (let i = 1; i <= 10; i++) {
        let answer = await attempt('wrong password, again');
        if (answer.status === 429) {
          // Slowed down: told how long to wait, and the wait is all it takes.
          const wait = Number(answer.headers.get('retry-after'));
          assert.equal(wait, 2 ** (i - 4), `attempt ${i}`);
          assert.match(answer.body, /Too many failed attempts for this email\. Wait \d+ seconds/);
          statuses.push(429);
          clock.advance(wait * 1000);
          answer = await attempt('wrong password, again');
        }
        statuses.push(answer.status);
      }
      // 1-3 at once; 4-10 each after a wait of 1, 2, 4, … seconds.
      assert.deepEqual(statuses, [422, 422, 422, 429, 422, 429, 422, 429, 422, 429, 422, 429, 422, 429, 422, 429, 422]);
      const locked = await attempt(TEST_PASSWORD);
      assert.equal(locked.status, 429);
      assert.equal(locked.headers.get('retry-after'), String(LOCK_MS / 1000));
      assert.match(locked.body, /paused for 15 minutes/);
      clock.advance(LOCK_MS - 60_000);
      assert.equal((await attempt(TEST_PASSWORD)).status, 429, 'still refused after 14 minutes');
      clock.advance(60_000);
      const after15 = await attempt(TEST_PASSWORD);
      assert.equal(after15.status, email === 'locked@example.com' ? 303 : 422, 'the right password works again');
      clock.advance(10 * 60_000);
    }
  });
});

describe('failed sign-ins are counted per email and address, and per email (ADR 0072)', () => {
  let api: TestApi;
  const clock = new FakeClock('2026-03-01T10:00:00.000Z');
  before(async () => {
    // Client addresses from X-Forwarded-For; a sign-in limit per address no test here reaches.
    api = await startTestApi({
      clock,
      env: { SVC_TRUSTED_PROXIES: '127.0.0.1', SVC_SIGN_IN_LIMIT_PER_MINUTE: '1000' },
    });
    await createUser(api.app, { email: 'owner@example.com' });
  });
  after(async () => {
    await api?.close();
  });

  /** A browser at `ip` with the sign-in form open. */
  const browserAt = async (ip: string) => {
    const browser = new FormClient(api.url);
    const token = csrfToken((await browser.get('/login', { 'x-forwarded-for': ip })).body);
    return (email: string, password: string) =>
      browser.post('/login', { _csrf: token, email, password }, { 'x-forwarded-for': ip });
  };

  /** Wrong passwords from one address until it is locked, waiting out each slow-down. */
  const lockOut = async (attempt: (email: string, password: string) => Promise<PageResponse>, email: string) => {
    for (let failed = 0; failed < LOCK_AFTER_ATTEMPTS;) {
      const answer = await attempt(email, 'a wrong guess, again');
      if (answer.status === 429) clock.advance(Number(answer.headers.get('retry-after')) * 1000);
      else {
        assert.equal(answer.status, 422);
        failed++;
      }
    }
  };

  it('an attacker locks only its own address out: the owner signs in from another, unknown emails alike', async () => {
    for (const email of ['owner@example.com', 'no-one-here@example.com']) {
      const attacker = await browserAt('198.51.100.1');
      await lockOut(attacker, email);
      const locked = await attacker(email, TEST_PASSWORD);
      assert.equal(locked.status, 429, 'the attacker stays locked, even with the right password');
      assert.equal(locked.headers.get('retry-after'), String(LOCK_MS / 1000));
      assert.match(locked.body, /from your address is paused for 15 minutes/);
      const owner = await (await browserAt('203.0.113.9'))(email, TEST_PASSWORD);
      assert.equal(owner.status, email === 'owner@example.com' ? 303 : 422, owner.body);
      clock.advance(LOCK_MS);
    }
  });

  it('guesses spread over many addresses slow the email for everyone, up to a minute apart, never a lock', async () => {
    let address = 0;
    const fresh = () => browserAt(`198.51.100.${++address}`);
    // Two wrong guesses per address: never slowed there.
    for (let i = 0; i < EMAIL_SLOW_AFTER_ATTEMPTS; i += 2) {
      const guess = await fresh();
      assert.equal((await guess('owner@example.com', 'wrong guess')).status, 422);
      assert.equal((await guess('owner@example.com', 'wrong guess')).status, 422);
    }
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) {
      const slowed = await (await fresh())('owner@example.com', 'wrong guess');
      assert.equal(slowed.status, 429);
      assert.match(slowed.body, /Too many failed attempts for this email\. Wait \d+ seconds/);
      const wait = Number(slowed.headers.get('retry-after'));
      waits.push(wait);
      clock.advance(wait * 1000);
      assert.equal((await (await fresh())('owner@example.com', 'wrong guess')).status, 422, 'after the wait');
    }
    assert.deepEqual(waits, [1, 2, 4, 8, 16, 32, 60, 60]);
    assert.equal(EMAIL_MAX_WAIT_MS, 60_000);
    // The owner waits no more than that, from an address of their own.
    const owner = await browserAt('203.0.113.10');
    const slowed = await owner('owner@example.com', TEST_PASSWORD);
    assert.deepEqual([slowed.status, slowed.headers.get('retry-after')], [429, '60']);
    clock.advance(60_000);
    assert.equal((await owner('owner@example.com', TEST_PASSWORD)).status, 303);
    clock.advance(LOCK_MS);
  });

  it('counts guesses sent at once: per address, and per email from many addresses', async () => {
    const oneAddress = await browserAt('198.51.100.50');
    const together = await Promise.all(
      Array.from({ length: 12 }, () => oneAddress('parallel@example.com', 'wrong guess')),
    );
    const statuses = (answers: PageResponse[]) => answers.map((a) => a.status).sort();
    assert.deepEqual(statuses(together), [...Array(3).fill(422), ...Array(9).fill(429)]);
    clock.advance(LOCK_MS);

    const browsers = await Promise.all(Array.from({ length: 30 }, (_, i) => browserAt(`198.51.100.${100 + i}`)));
    const spread = await Promise.all(browsers.map((attempt) => attempt('parallel@example.com', 'wrong guess')));
    assert.deepEqual(statuses(spread), [
      ...Array(EMAIL_SLOW_AFTER_ATTEMPTS).fill(422),
      ...Array(30 - EMAIL_SLOW_AFTER_ATTEMPTS).fill(429),
    ]);
  });
});

describe('session cookies behind https (SVC_PUBLIC_URL)', () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi({ env: { SVC_PUBLIC_URL: 'https://svc.example' } });
    await createUser(api.app);
  });
  after(async () => {
    await api?.close();
  });

  it('are Secure and __Host- prefixed, the CSRF secret too', async () => {
    const browser = new FormClient(api.url);
    const page = await browser.get('/login');
    assert.match(cookieLine(page, '__Host-svc_csrf') ?? '', /; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
    const answer = await browser.post('/login', {
      _csrf: csrfToken(page.body),
      email: 'ada@example.com',
      password: TEST_PASSWORD,
    });
    assert.equal(answer.status, 303, answer.body);
    assert.match(
      cookieLine(answer, '__Host-svc_session') ?? '',
      /^__Host-svc_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; Secure; SameSite=Lax$/,
    );
    assert.equal((await browser.get('/dashboard')).status, 200);
  });
});
