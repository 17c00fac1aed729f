import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CommandBus } from '@nestjs/cqrs';
import { CreateWebhookCommand, SendTestEventCommand } from '#webhooks';
import { startTestApi, type TestApi } from '../api/support/test-api.js';
import { bearer, createKey } from './support/platform-fixtures.js';
import { csrfToken, FormClient } from './support/form-client.js';
import { createUser, TEST_PASSWORD } from './support/users-fixtures.js';

/**
 * The dashboard's settings forms over HTTP (ADR 0069): every form needs its CSRF token; a
 * session of another account's user cannot see or act on this account's keys and webhooks (404,
 * exactly like an unknown id, and nothing changes); a member cannot grant or do what the API
 * keeps for admins.
 */
describe('dashboard settings: CSRF, ownership and roles', () => {
  let api: TestApi;
  let accountA: string;
  let adminKeyA: string;
  let keyA: { keyId: string; key: string };
  let webhookA: string;
  let deliveryA: string;

  before(async () => {
    api = await startTestApi({ env: { SVC_WEBHOOK_ALLOW_PRIVATE: 'true' } });
    ({ accountId: accountA } = await createUser(api.app, { email: 'ada@example.com', role: 'admin' }));
    await createUser(api.app, { email: 'mel@example.com', role: 'member', accountId: accountA });
    await createUser(api.app, { email: 'bob@example.com', role: 'admin' });
    adminKeyA = (await createKey(api.app, accountA, { name: 'admin' })).key;
    keyA = await createKey(api.app, accountA, { name: 'victim', scopes: ['read'] });
    const commands = api.app.get(CommandBus);
    const owner = { kind: 'platform_account', id: accountA } as const;
    const webhook = await commands.execute(
      new CreateWebhookCommand({
        channel: 'platform',
        owner,
        url: 'http://127.0.0.1:9/hook',
        events: ['agent.completed'],
        secret: 'sixteen bytes or more',
      }),
    );
    webhookA = webhook.id;
    deliveryA = (await commands.execute(new SendTestEventCommand({ channel: 'platform', owner, webhookId: webhookA })))
      .id;
  });
  after(async () => {
    await api?.close();
  });

  async function signedIn(email: string): Promise<FormClient> {
    const client = new FormClient(api.url);
    assert.equal((await client.signIn(email, TEST_PASSWORD)).status, 303);
    return client;
  }

  /** What A's admin key sees through the API: the key and the webhook as they are. */
  async function stateOfA(): Promise<unknown> {
    const key = await fetch(`${api.url}/v1/api-keys/${keyA.keyId}`, { headers: bearer(adminKeyA) });
    const keys = await fetch(`${api.url}/v1/api-keys?limit=100`, { headers: bearer(adminKeyA) });
    const webhook = await fetch(`${api.url}/v1/webhooks/${webhookA}`, { headers: bearer(adminKeyA) });
    const deliveries = await fetch(`${api.url}/v1/webhooks/${webhookA}/deliveries`, { headers: bearer(adminKeyA) });
    const k = (await key.json()) as { revoked_at: unknown };
    const w = (await webhook.json()) as Record<string, unknown>;
    const d = (await deliveries.json()) as { data: Array<{ id: string; redelivery_pending: boolean }> };
    return {
      keyRevoked: k.revoked_at,
      keys: ((await keys.json()) as { data: unknown[] }).data.length,
      webhook: [w.url, w.events, w.active, w.updated_at],
      deliveries: d.data.map((x) => [x.id, x.redelivery_pending]),
    };
  }

  const posts = (): Array<{ path: string; fields: Record<string, string> }> => [
    { path: '/dashboard/settings/api-keys', fields: { description: 'forged', scopes: 'read' } },
    { path: `/dashboard/settings/api-keys/${keyA.keyId}/revoke`, fields: {} },
    {
      path: '/dashboard/settings/webhooks',
      fields: { url: 'http://127.0.0.1:9/x', secret: 'sixteen bytes or more', events: 'agent.failed' },
    },
    {
      path: `/dashboard/settings/webhooks/${webhookA}`,
      fields: { url: 'http://127.0.0.1:9/moved', secret: '', events: 'agent.failed' },
    },
    { path: `/dashboard/settings/webhooks/${webhookA}/active`, fields: { active: 'false' } },
    { path: `/dashboard/settings/webhooks/${webhookA}/test`, fields: {} },
    { path: `/dashboard/settings/webhooks/${webhookA}/deliveries/${deliveryA}/redeliver`, fields: {} },
    { path: `/dashboard/settings/webhooks/${webhookA}/delete`, fields: {} },
  ];

  it("refuses every settings form without its token, or with another browser's (403), and changes nothing", async () => {
    const ada = await signedIn('ada@example.com');
    const before = await stateOfA();
    const othersToken = csrfToken((await new FormClient(api.url).get('/login')).body);
    for (const { path, fields } of posts()) {
      for (const token of [undefined, othersToken]) {
        const answer = await ada.post(path, token ? { ...fields, _csrf: token } : fields);
        assert.equal(answer.status, 403, `${path} ${token ? "with another browser's token" : 'without a token'}`);
        assert.match(answer.body, /<title>Form expired · svc<\/title>/);
      }
    }
    assert.deepEqual(await stateOfA(), before);
    // The same forms with the page's own token go through (so the refusals above were the token's).
    const page = await ada.get('/dashboard/settings/api-keys');
    const created = await ada.post('/dashboard/settings/api-keys', {
      description: 'honest',
      scopes: 'read',
      _csrf: csrfToken(page.body),
    });
    assert.equal(created.status, 303, created.body);
  });

  it("a session of another account's user gets 404 for this account's keys and webhooks, like unknown ids, and changes nothing", async () => {
    const bob = await signedIn('bob@example.com');
    const token = csrfToken((await bob.get('/dashboard/settings/api-keys')).body);
    const before = await stateOfA();
    const unknownKey = await bob.get('/dashboard/settings/api-keys/key_00000000000000000000000000/revoke');
    const unknownWebhook = await bob.get('/dashboard/settings/webhooks/wh_00000000000000000000000000');
    assert.equal(unknownKey.status, 404);
    assert.equal((await bob.get(`/dashboard/settings/api-keys/${keyA.keyId}/revoke`)).body, unknownKey.body);
    assert.equal((await bob.get(`/dashboard/settings/webhooks/${webhookA}`)).body, unknownWebhook.body);
    for (const path of [
      `/dashboard/settings/api-keys/${keyA.keyId}/revoke`,
      `/dashboard/settings/webhooks/${webhookA}`,
      `/dashboard/settings/webhooks/${webhookA}/edit`,
      `/dashboard/settings/webhooks/${webhookA}/delete`,
    ]) {
      const answer = await bob.get(path);
      assert.equal(answer.status, 404, `GET ${path}`);
      assert.match(answer.body, /<title>Page not found · svc<\/title>/);
      assert.equal(answer.body.includes(webhookA) || answer.body.includes(keyA.keyId), false, 'nothing of it shown');
    }
    // Every form on an id of A's (the two create forms act on the session's own account).
    for (const { path, fields } of posts().filter((p) => /(key|wh)_/.test(p.path))) {
      const answer = await bob.post(path, { ...fields, _csrf: token });
      assert.equal(answer.status, 404, `POST ${path}`);
      assert.match(answer.body, /<title>Page not found · svc<\/title>/);
    }
    assert.deepEqual(await stateOfA(), before);
    assert.equal((await fetch(`${api.url}/v1/account`, { headers: bearer(keyA.key) })).status, 200);
    // Their own lists show nothing of A's.
    for (const path of ['/dashboard/settings/api-keys', '/dashboard/settings/webhooks']) {
      const list = await bob.get(path);
      assert.equal(list.status, 200);
      assert.equal(
        list.body.includes(keyA.keyId) || list.body.includes(webhookA) || list.body.includes('victim'),
        false,
      );
    }
  });

  it("a new key's value is on one page of the session that made it: not in the redirect, not for another session, not twice", async () => {
    const ada = await signedIn('ada@example.com');
    const page = await ada.get('/dashboard/settings/api-keys');
    const created = await ada.post('/dashboard/settings/api-keys', {
      description: 'once',
      scopes: 'read',
      _csrf: csrfToken(page.body),
    });
    assert.equal(created.status, 303);
    assert.equal(created.headers.get('location'), '/dashboard/settings/api-keys/new-key');
    const otherSession = await signedIn('ada@example.com');
    assert.equal((await otherSession.get('/dashboard/settings/api-keys/new-key')).status, 404);
    const shown = await ada.get('/dashboard/settings/api-keys/new-key');
    assert.equal(shown.status, 200);
    assert.equal(shown.headers.get('cache-control'), 'no-store');
    assert.match(shown.headers.get('content-security-policy') ?? '', /script-src 'sha256-[^']+'; /);
    const value = /id="new-key-value" type="text" readonly value="([^"]+)"/.exec(shown.body)?.[1];
    assert.ok(value);
    assert.match(value, /^svc_test_/);
    assert.equal((await fetch(`${api.url}/v1/account`, { headers: bearer(value) })).status, 200);
    const again = await ada.get('/dashboard/settings/api-keys/new-key');
    assert.equal(again.status, 404);
    assert.equal(again.body.includes(value), false);
    assert.equal((await ada.get('/dashboard/settings/api-keys')).body.includes(value), false);
    // Pages without a script allow none.
    assert.doesNotMatch(page.headers.get('content-security-policy') ?? '', /script-src/);
  });

  it('a member cannot grant admin (even by a forged form), revoke keys, or manage webhooks (403); nothing changes', async () => {
    const mel = await signedIn('mel@example.com');
    const page = await mel.get('/dashboard/settings/api-keys');
    assert.equal(page.status, 200);
    assert.match(page.body, /value="admin"\s+disabled/);
    const token = csrfToken(page.body);
    const before = await stateOfA();
    const forged = await mel.post('/dashboard/settings/api-keys', {
      description: 'escalate',
      scopes: 'admin',
      _csrf: token,
    });
    assert.equal(forged.status, 422);
    assert.match(forged.body, /This action needs the &quot;admin&quot; scope\./);
    assert.equal((await mel.get(`/dashboard/settings/api-keys/${keyA.keyId}/revoke`)).status, 403);
    assert.equal((await mel.post(`/dashboard/settings/api-keys/${keyA.keyId}/revoke`, { _csrf: token })).status, 403);
    for (const path of ['/dashboard/settings/webhooks', `/dashboard/settings/webhooks/${webhookA}`]) {
      assert.equal((await mel.get(path)).status, 403, path);
    }
    assert.equal((await mel.post(`/dashboard/settings/webhooks/${webhookA}/test`, { _csrf: token })).status, 403);
    assert.deepEqual(await stateOfA(), before);
    assert.equal((await mel.get('/dashboard/settings/account')).status, 200, 'the account page is for every user');
  });
});
