import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DOCUMENT_STORE, type DocumentStore } from '#documents';
import { EVENT_STORE, type EventStore } from '#eventstore';
import { PLATFORM_EVENT_TYPES } from '#platform';
import { WEBHOOK_SECRETS_COLLECTION } from '#webhooks';
import { startTestApi, type TestApi } from '../api/support/test-api.js';
import { createAccountWithKey, createKey } from '../platform/support/platform-fixtures.js';
import { client } from './support/http-client.js';

const SECRET = 'whsec-0123456789abcdef';

describe('/v1/webhooks (real HTTP, embedded stores)', () => {
  let api: TestApi;
  let call: ReturnType<typeof client>;
  let accountId: string;
  before(async () => {
    api = await startTestApi({ env: { SVC_WEBHOOK_ALLOW_PRIVATE: 'true' } });
    const admin = await createAccountWithKey(api.app);
    accountId = admin.accountId;
    call = client(api.url, admin.key);
  });
  after(async () => {
    await api?.close();
  });

  it('creates (201 with id, url, events, active, created_at — never the secret), reads, lists, updates and deletes', async () => {
    const created = await call('POST', '/v1/webhooks', {
      url: 'https://hooks.example.com/svc',
      events: ['agent.completed', 'security.alert'],
      secret: SECRET,
    });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(Object.keys(created.body).sort(), ['active', 'created_at', 'events', 'id', 'url']);
    assert.match(created.body.id, /^wh_[0-9A-Z]{26}$/);
    assert.equal(created.body.url, 'https://hooks.example.com/svc');
    assert.deepEqual(created.body.events, ['agent.completed', 'security.alert']);
    assert.equal(created.body.active, true);
    assert.ok(!Number.isNaN(Date.parse(created.body.created_at)));
    assert.ok(!created.text.includes(SECRET));
    const id = created.body.id as string;

    // Read-your-writes: the next GET sees it.
    const one = await call('GET', `/v1/webhooks/${id}`);
    assert.equal(one.status, 200);
    assert.equal(one.body.id, id);
    assert.equal(one.body.active, true);
    assert.equal(one.body.failure_count, 0);
    assert.equal(one.body.disabled_reason, null);
    assert.ok(!one.text.includes(SECRET));

    const list = await call('GET', '/v1/webhooks');
    assert.equal(list.status, 200);
    assert.ok(list.body.data.some((w: { id: string }) => w.id === id));
    assert.ok(!list.text.includes(SECRET));

    const newSecret = 'rotated-secret-0123456789';
    const patched = await call('PATCH', `/v1/webhooks/${id}`, {
      url: 'https://hooks.example.com/v2',
      events: ['agent.failed'],
      secret: newSecret,
    });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.url, 'https://hooks.example.com/v2');
    assert.deepEqual(patched.body.events, ['agent.failed']);
    assert.ok(!patched.text.includes(newSecret));

    const disabled = await call('PATCH', `/v1/webhooks/${id}`, { active: false });
    assert.equal(disabled.body.active, false);
    assert.equal(disabled.body.disabled_reason, 'manual');
    const enabled = await call('PATCH', `/v1/webhooks/${id}`, { active: true });
    assert.equal(enabled.body.active, true);
    assert.equal(enabled.body.disabled_reason, null);

    const del = await call('DELETE', `/v1/webhooks/${id}`);
    assert.equal(del.status, 204);
    assert.equal(del.text, '');
    assert.equal((await call('GET', `/v1/webhooks/${id}`)).status, 404);
    assert.equal((await call('DELETE', `/v1/webhooks/${id}`)).status, 404);
    assert.ok(!(await call('GET', '/v1/webhooks')).body.data.some((w: { id: string }) => w.id === id));
  });

  it('keeps secrets out of the event log, sealed at rest, and removes them with the webhook', async () => {
    const secret = 'never-in-the-log-0123456789';
    const created = await call('POST', '/v1/webhooks', {
      url: 'https://hooks.example.com/x',
      events: ['agent.failed'],
      secret,
    });
    const store = api.app.get<EventStore>(EVENT_STORE);
    for await (const e of store.readStream(`webhook-${created.body.id}`))
      assert.ok(!JSON.stringify(e.data).includes(secret), `${e.type} carries the secret`);
    const documents = api.app.get<DocumentStore>(DOCUMENT_STORE);
    assert.equal(await documents.collection(WEBHOOK_SECRETS_COLLECTION).count({ webhook_id: created.body.id }), 1);
    // Sealed at rest: the stored document holds neither the secret nor anything but the sealed form.
    const [stored] = (await documents.collection(WEBHOOK_SECRETS_COLLECTION).find({ webhook_id: created.body.id }))
      .items;
    assert.ok(!JSON.stringify(stored).includes(secret), 'the stored document holds the plaintext');
    assert.match(String(stored!.sealed), /^sb1\.[0-9a-f]{8}\./);
    assert.equal(stored!.secret, undefined);
    await call('DELETE', `/v1/webhooks/${created.body.id}`);
    assert.equal(await documents.collection(WEBHOOK_SECRETS_COLLECTION).count({ webhook_id: created.body.id }), 0);
  });

  it('400 for an unknown event type, a missing or short secret, a non-http(s) URL, unknown fields', async () => {
    const cases: Array<[unknown, string]> = [
      [{ url: 'https://h.example.com', events: ['agent.exploded'], secret: SECRET }, 'body.events.0'],
      [{ url: 'https://h.example.com', events: ['webhook.test'], secret: SECRET }, 'body.events.0'],
      [{ url: 'https://h.example.com', events: [], secret: SECRET }, 'body.events'],
      [{ url: 'https://h.example.com', events: ['agent.completed'] }, 'body.secret'],
      [{ url: 'https://h.example.com', events: ['agent.completed'], secret: 'fifteen-bytes!!' }, 'body.secret'],
      [{ url: 'ftp://h.example.com/x', events: ['agent.completed'], secret: SECRET }, 'body.url'],
      [{ url: 'not a url', events: ['agent.completed'], secret: SECRET }, 'body.url'],
      [{ url: 'https://user:pw@h.example.com/', events: ['agent.completed'], secret: SECRET }, 'body.url'],
      [{ events: ['agent.completed'], secret: SECRET }, 'body.url'],
      [{ url: 'https://h.example.com', events: ['agent.completed'], secret: SECRET, extra: 1 }, 'body.extra'],
    ];
    for (const [body, path] of cases) {
      const res = await call('POST', '/v1/webhooks', body);
      assert.equal(res.status, 400, `${JSON.stringify(body)} → ${res.text}`);
      assert.equal(res.body.code, 'VALIDATION_FAILED');
      assert.ok(
        res.body.details.some((d: { path: string }) => d.path === path),
        `${JSON.stringify(body)}: expected a detail at ${path}, got ${JSON.stringify(res.body.details)}`,
      );
    }
    // A 16-byte secret counts bytes, not characters.
    assert.equal(
      (
        await call('POST', '/v1/webhooks', {
          url: 'https://h.example.com',
          events: ['agent.completed'],
          secret: 'ééééééééé',
        })
      ).status,
      201,
    );
    const id = (
      await call('POST', '/v1/webhooks', { url: 'https://h.example.com', events: ['agent.completed'], secret: SECRET })
    ).body.id;
    assert.equal((await call('PATCH', `/v1/webhooks/${id}`, { events: ['nope'] })).status, 400);
    assert.equal((await call('PATCH', `/v1/webhooks/${id}`, { secret: 'short' })).status, 400);
    assert.equal((await call('PATCH', `/v1/webhooks/${id}`, { url: 'javascript:alert(1)' })).status, 400);
  });

  it('accepts every one of the 13 platform event types by its exact name', async () => {
    const res = await call('POST', '/v1/webhooks', {
      url: 'https://h.example.com/all',
      events: [...PLATFORM_EVENT_TYPES],
      secret: SECRET,
    });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.events.length, 13);
  });

  it("another account's webhook is 404 everywhere; a key without admin gets 403", async () => {
    const mine = (
      await call('POST', '/v1/webhooks', {
        url: 'https://h.example.com/mine',
        events: ['agent.completed'],
        secret: SECRET,
      })
    ).body.id as string;
    const stranger = await createAccountWithKey(api.app);
    const other = client(api.url, stranger.key);
    assert.equal((await other('GET', `/v1/webhooks/${mine}`)).status, 404);
    assert.equal((await other('GET', `/v1/webhooks/${mine}/deliveries`)).status, 404);
    assert.equal((await other('PATCH', `/v1/webhooks/${mine}`, { active: false })).status, 404);
    assert.equal((await other('POST', `/v1/webhooks/${mine}/test`)).status, 404);
    assert.equal((await other('DELETE', `/v1/webhooks/${mine}`)).status, 404);
    assert.ok(!(await other('GET', '/v1/webhooks')).body.data.some((w: { id: string }) => w.id === mine));

    const { key } = await createKey(api.app, accountId, { scopes: ['read', 'write'] });
    const reader = client(api.url, key);
    for (const [method, path] of [
      ['GET', '/v1/webhooks'],
      ['POST', '/v1/webhooks'],
      ['GET', `/v1/webhooks/${mine}`],
      ['DELETE', `/v1/webhooks/${mine}`],
      ['POST', `/v1/webhooks/${mine}/test`],
    ] as const) {
      const res = await reader(
        method,
        path,
        method === 'POST' && path === '/v1/webhooks'
          ? { url: 'https://h.example.com', events: ['agent.completed'], secret: SECRET }
          : undefined,
      );
      assert.equal(res.status, 403, `${method} ${path}`);
      assert.equal(res.body.required_scope, 'admin');
    }
    assert.equal((await fetch(`${api.url}/v1/webhooks`)).status, 401);
  });

  it('lists newest first with D6 cursor pagination', async () => {
    const fresh = await createAccountWithKey(api.app);
    const c = client(api.url, fresh.key);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push(
        (
          await c('POST', '/v1/webhooks', {
            url: `https://h.example.com/${i}`,
            events: ['agent.completed'],
            secret: SECRET,
          })
        ).body.id,
      );
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: Record<string, any> } = await c(
        'GET',
        `/v1/webhooks?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      assert.ok(page.body.data.length <= 2);
      seen.push(...page.body.data.map((w: { id: string }) => w.id));
      cursor = page.body.next_cursor;
      assert.equal(page.body.has_more, cursor !== null);
    } while (cursor);
    assert.deepEqual(seen, [...ids].reverse());
    assert.equal((await c('GET', '/v1/webhooks?cursor=garbage')).status, 400);
    assert.equal((await c('GET', '/v1/webhooks?limit=101')).status, 400);
  });

  it('documents every operation in the OpenAPI document', async () => {
    const res = await fetch(`${api.url}/docs/api/openapi.v1.yaml`);
    const text = await res.text();
    for (const op of [
      'createWebhook',
      'listWebhooks',
      'getWebhook',
      'updateWebhook',
      'deleteWebhook',
      'listWebhookDeliveries',
      'redeliverWebhookDelivery',
      'sendWebhookTestEvent',
    ]) {
      assert.ok(text.includes(`operationId: ${op}`), op);
    }
  });
});
