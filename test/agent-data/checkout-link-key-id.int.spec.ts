import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CommandBus } from '@nestjs/cqrs';
import { CreateApiKeyCommand } from '#access';
import { agentAccountStream } from '#agent-billing';
import { EVENT_STORE, type EventStore } from '#eventstore';
import { CreateAccountCommand } from '#identity';
import { startTestApi, type TestApi } from '../api/support/test-api.js';
import { pay, payInSandbox, postJson, status, withKey } from './support/agent-client.js';

type Json = Record<string, any>;

// Spec payment flow 3: "GET /agents/checkout-link with objective and pack_id (and key_id to bind
// it to a key)". The link is for a person's browser, which never holds the key (ADR 0058, amended).
describe('checkout-link binds with a bare key_id (spec payment flow 3)', () => {
  let api: TestApi;
  let events: EventStore;
  before(async () => {
    api = await startTestApi({
      env: { SVC_BOOTSTRAP: 'false', SVC_TRUSTED_PROXIES: '127.0.0.1', SVC_ANONYMOUS_WRITE_LIMIT_PER_MINUTE: '6' },
    });
    events = api.app.get<EventStore>(EVENT_STORE);
  });
  after(async () => {
    await api?.close();
  });

  /** A browser at `ip` (each test its own address: the anonymous limit counts per address). */
  const open = (query: string, ip: string, init: RequestInit = {}) =>
    fetch(`${api.url}/api/v1/agents/checkout-link?${query}`, {
      redirect: 'manual',
      ...init,
      headers: { 'x-forwarded-for': ip, ...(init.headers as Record<string, string> | undefined) },
    });
  async function count(stream?: string): Promise<number> {
    let n = 0;
    for await (const e of stream ? events.readStream(stream) : events.readAll())
      if (stream || e.type === 'CheckoutSessionOpened') n++;
    return n;
  }

  it('without the key: 303 to a checkout bound to the key’s account, or {url} for JSON; paying credits that account', async () => {
    const issued = await pay(api.url);
    const accountEvents = await count(agentAccountStream(issued.account_id));
    const redirect = await open(`objective=growth&pack_id=pack_99&key_id=${issued.key.id}`, '203.0.113.1');
    assert.equal(redirect.status, 303, await redirect.clone().text());
    assert.match(redirect.headers.get('location') ?? '', /\/api\/v1\/billing\/sandbox\/checkout\/cs_/);
    const json = await open(`pack_id=pack_99&key_id=${issued.key.id}`, '203.0.113.1', {
      headers: { accept: 'application/json' },
    });
    assert.equal(json.status, 200);
    const body = (await json.json()) as Json;
    assert.deepEqual([body.key_id, body.bound, body.pack_id], [issued.key.id, true, 'pack_99']);
    // On the checkout's own stream, never the account's.
    const recorded = [];
    for await (const e of events.readStream(`checkout-${body.session_id}`)) recorded.push(e);
    assert.deepEqual(
      recorded.map((e) => [e.type, (e.data as Json).account_id, (e.data as Json).key_id]),
      [['CheckoutSessionOpened', issued.account_id, issued.key.id]],
    );
    assert.equal(await count(agentAccountStream(issued.account_id)), accountEvents);
    await payInSandbox(body.url);
    assert.equal((await status(api.url, issued.key.api_key)).balance_usd, 110, 'the credits went to the key’s account');
  });

  it('key_id wins over the key the request is sent with (another account’s key binds to key_id)', async () => {
    const issued = await pay(api.url);
    const other = await pay(api.url);
    const res = await open(`pack_id=pack_29&key_id=${issued.key.id}`, '203.0.113.2', {
      headers: { accept: 'application/json', 'x-api-key': other.key.api_key },
    });
    assert.equal(res.status, 200);
    const body = (await res.json()) as Json;
    assert.equal(body.key_id, issued.key.id);
    await payInSandbox(body.url);
    assert.equal((await status(api.url, issued.key.api_key)).balance_usd, 29);
    assert.equal((await status(api.url, other.key.api_key)).balance_usd, 0);
  });

  it('an unknown, revoked or platform key id: 404 KEY_NOT_FOUND problem+json, and nothing is opened', async () => {
    const issued = await pay(api.url);
    const second = (
      (await (
        await fetch(`${api.url}/api/v1/agents/keys`, withKey(issued.key.api_key, postJson({ name: 'second' })))
      ).json()) as { key: { id: string } }
    ).key;
    const revoked = await fetch(
      `${api.url}/api/v1/agents/keys/${second.id}`,
      withKey(issued.key.api_key, { method: 'DELETE' }),
    );
    assert.ok(revoked.ok, `revoke: ${revoked.status}`);
    const commands = api.app.get(CommandBus);
    const account = await commands.execute(new CreateAccountCommand({ name: 'platform co', plan: 'team' }));
    const platformKey = await commands.execute(
      new CreateApiKeyCommand({
        accountId: account.accountId,
        name: 'p',
        scopes: ['admin'],
        creator: { operator: true },
      }),
    );
    const opened = await count();
    for (const keyId of ['key_01JAAAAAAAAAAAAAAAAAAAAAAA', second.id, platformKey.id as string]) {
      const res = await open(`pack_id=pack_29&key_id=${keyId}`, '203.0.113.3');
      assert.equal(res.status, 404, keyId);
      assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
      const problem = (await res.json()) as Json;
      assert.equal(problem.code, 'KEY_NOT_FOUND');
      assert.equal(problem.status, 404);
      assert.ok(problem.next_actions.length > 0);
    }
    const malformed = await open('pack_id=pack_29&key_id=key_nope', '203.0.113.3');
    assert.equal(malformed.status, 400);
    assert.equal(((await malformed.json()) as Json).code, 'VALIDATION_FAILED');
    assert.equal(await count(), opened, 'no checkout was opened');
  });

  it('a signed link is still checked: changed or with half a signature it is refused', async () => {
    const issued = await pay(api.url);
    const unfunded = await fetch(`${api.url}/api/v1/discovery/top`, withKey(issued.key.api_key));
    assert.equal(unfunded.status, 402);
    const link = new URL(
      ((await unfunded.json()) as { next_actions: { action: string; url: string }[] }).next_actions.find(
        (a) => a.action === 'buy_credits',
      )!.url,
    );
    const other = await pay(api.url);
    const forged = new URL(link);
    forged.searchParams.set('key_id', other.key.id);
    const refused = await open(forged.search.slice(1), '203.0.113.4');
    assert.equal(refused.status, 401);
    assert.equal(((await refused.json()) as Json).code, 'CHECKOUT_LINK_SIGNATURE_INVALID');
    const half = new URL(link);
    half.searchParams.delete('sig');
    assert.equal((await open(half.search.slice(1), '203.0.113.4')).status, 401);
    const signed = await open(link.search.slice(1), '203.0.113.4', { headers: { accept: 'application/json' } });
    assert.equal(signed.status, 200);
    assert.equal(((await signed.json()) as Json).key_id, issued.key.id);
  });

  it('still limited per address: a flood of bare key_id links from one address is refused there only', async () => {
    const issued = await pay(api.url);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++)
      statuses.push((await open(`pack_id=pack_29&key_id=${issued.key.id}`, '198.51.100.9')).status);
    assert.deepEqual(statuses.slice(0, 6), [303, 303, 303, 303, 303, 303]);
    assert.deepEqual(statuses.slice(6), [429, 429]);
    assert.equal((await open(`pack_id=pack_29&key_id=${issued.key.id}`, '198.51.100.10')).status, 303);
  });
});
