import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import { after, before, describe, it } from 'node:test';
import { Global, Module } from '@nestjs/common';
import { FakeClock } from '#kernel';
import { guardedLookup, type Resolver, WEBHOOK_RESOLVER, WebhookSender } from '#webhooks';
import { startTestApi, type TestApi } from '../api/support/test-api.js';
import { createAccountWithKey } from '../platform/support/platform-fixtures.js';
import { type Body, client } from './support/http-client.js';
import { TestReceiver } from './support/receiver.js';
import { platformDispatcher, publishPlatformEvent } from './support/webhook-fixtures.js';

const SECRET = 'ssrf-secret-0123456789';

/**
 * Names resolve through this table, never through DNS. Every name maps to addresses on this
 * machine or to addresses the guard refuses before any socket is opened: no test here sends a
 * packet anywhere but loopback.
 */
const TABLE: Record<string, Array<{ address: string; family: 4 | 6 }>> = {
  'internal.example.test': [{ address: '127.0.0.1', family: 4 }],
  'mapped.example.test': [{ address: '::ffff:127.0.0.1', family: 6 }],
  'ten.example.test': [{ address: '10.1.2.3', family: 4 }],
  'metadata.example.test': [{ address: '169.254.169.254', family: 4 }],
  'cgnat.example.test': [{ address: '100.64.12.1', family: 4 }],
  // Rebinding-style answer: one public and one private address. Refused as a whole.
  'rebind.example.test': [
    { address: '93.184.216.34', family: 4 },
    { address: '127.0.0.1', family: 4 },
  ],
};
const resolver: Resolver = async (hostname) => {
  const found = TABLE[hostname];
  if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return found;
};

@Global()
@Module({ providers: [{ provide: WEBHOOK_RESOLVER, useValue: resolver }], exports: [WEBHOOK_RESOLVER] })
class TestResolverModule {}

describe('SSRF guard (D14), SVC_WEBHOOK_ALLOW_PRIVATE=false', () => {
  let api: TestApi;
  let receiver: TestReceiver;
  let call: ReturnType<typeof client>;
  let accountId: string;
  const clock = new FakeClock('2026-05-01T00:00:00.000Z');
  before(async () => {
    api = await startTestApi({ clock, imports: [TestResolverModule], env: { SVC_WEBHOOK_ALLOW_PRIVATE: 'false' } });
    receiver = await TestReceiver.start();
    const admin = await createAccountWithKey(api.app);
    accountId = admin.accountId;
    call = client(api.url, admin.key);
  });
  after(async () => {
    await api?.close();
    await receiver?.close();
  });

  it('refuses URLs whose host is a non-public address literal at creation (400)', async () => {
    for (const host of [
      `127.0.0.1:${receiver.port}`,
      'localhost',
      '10.0.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '192.168.1.10',
      '[::1]',
      '[::ffff:127.0.0.1]',
      '[::ffff:a00:1]',
      '[fe80::1]',
      '0x7f000001',
      '2130706433',
    ]) {
      const res = await call('POST', '/v1/webhooks', {
        url: `http://${host}/hook`,
        events: ['agent.completed'],
        secret: SECRET,
      });
      assert.equal(res.status, 400, `${host}: ${res.text}`);
      assert.equal(res.body.details[0].path, 'body.url');
      assert.match(res.body.details[0].message, /public address/);
    }
  });

  it('refuses, at connection time, a name that resolves to a private address: nothing reaches the receiver listening there', async () => {
    const listening = receiver.endpoint('/ssrf', SECRET);
    const port = new URL(listening).port;
    const hooks: Array<[string, string]> = [];
    for (const name of [
      'internal.example.test',
      'mapped.example.test',
      'ten.example.test',
      'metadata.example.test',
      'cgnat.example.test',
      'rebind.example.test',
    ]) {
      const res = await call('POST', '/v1/webhooks', {
        url: `http://${name}:${port}/ssrf`,
        events: ['agent.completed'],
        secret: SECRET,
      });
      assert.equal(res.status, 201, `names are not resolved at creation: ${res.text}`);
      hooks.push([name, res.body.id]);
    }
    await publishPlatformEvent(api.app, accountId, 'agent.completed', { clock });
    await platformDispatcher(api.app).drain();
    assert.equal(receiver.at('/ssrf').length, 0, 'no connection was made');
    for (const [name, id] of hooks) {
      const d = ((await call('GET', `/v1/webhooks/${id}/deliveries`)).body.data as Body[])[0]!;
      assert.equal(d.state, 'pending', name);
      assert.equal(d.attempts[0].status_code, null);
      assert.match(
        d.attempts[0].error,
        new RegExp(`^blocked_address: ${name.replace(/\./g, '\\.')} resolves to `),
        `${name}: ${d.attempts[0].error}`,
      );
    }
  });

  it('the sender refuses literal non-public addresses before connecting, and the lookup refuses private answers', async () => {
    const sender = new WebhookSender({ allowPrivate: false, timeoutMs: 1000, resolver });
    try {
      const url = receiver.endpoint('/literal', SECRET);
      for (const target of [url, url.replace('127.0.0.1', '[::ffff:127.0.0.1]'), url.replace('127.0.0.1', '[::1]')]) {
        const outcome = await sender.send({ url: target, body: Buffer.from('{}'), headers: {} });
        assert.equal(outcome.succeeded, false);
        assert.match(String(outcome.error), /^blocked_address: /, target);
      }
      assert.equal(receiver.at('/literal').length, 0);
    } finally {
      sender.close();
    }
    // The lookup itself (no socket): every private or mixed answer is an error; a public one passes.
    const lookup = guardedLookup(
      async (name) => (name === 'public.example.test' ? [{ address: '93.184.216.34', family: 4 }] : resolver(name)),
      false,
    );
    const ask = (name: string) =>
      new Promise<{ error: Error | null; addresses: LookupAddress[] }>((resolve) =>
        lookup(name, { all: true }, (error, addresses) => resolve({ error, addresses: addresses as LookupAddress[] })),
      );
    for (const name of [
      'internal.example.test',
      'mapped.example.test',
      'ten.example.test',
      'metadata.example.test',
      'cgnat.example.test',
      'rebind.example.test',
    ]) {
      const { error } = await ask(name);
      assert.ok(error && /not a public address/.test(error.message), name);
    }
    const ok = await ask('public.example.test');
    assert.equal(ok.error, null);
    assert.deepEqual(ok.addresses, [{ address: '93.184.216.34', family: 4 }]);
  });
});
