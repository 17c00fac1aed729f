import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseApiKey } from '#access';
import { EVENT_STORE, type EventStore } from '#eventstore';
import { startTestApi, type TestApi, waitUntil } from '../api/support/test-api.js';
import { bearer, createAccountWithKey, createKey, type TestAccount } from './support/platform-fixtures.js';

type Body = Record<string, any>;

describe('/v1/api-keys (real HTTP, embedded stores)', () => {
  let api: TestApi;
  let admin: TestAccount;
  before(async () => {
    api = await startTestApi();
    admin = await createAccountWithKey(api.app, { scopes: ['admin'] });
  });
  after(async () => {
    await api?.close();
  });

  const call = async (
    method: string,
    path: string,
    key: string,
    body?: unknown,
  ): Promise<{ status: number; body: Body; headers: Headers; text: string }> => {
    const res = await fetch(`${api.url}${path}`, {
      method,
      headers: { ...bearer(key), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Body) : {}, headers: res.headers, text };
  };
  const listAll = async (key: string): Promise<Body[]> => {
    const out: Body[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: Body } = await call('GET', `/v1/api-keys?limit=100${cursor ? `&cursor=${cursor}` : ''}`, key);
      out.push(...page.body.data);
      cursor = page.body.next_cursor;
    } while (cursor);
    return out;
  };

  it('creates a key (201), shows its value once and never again, and the key works at once', async () => {
    const created = await call('POST', '/v1/api-keys', admin.key, {
      name: 'CI deploys',
      scopes: ['read', 'agents:run'],
    });
    assert.equal(created.status, 201);
    assert.deepEqual(Object.keys(created.body).sort(), ['created_at', 'id', 'key', 'name', 'scopes']);
    assert.match(created.body.id, /^key_[0-9A-Z]{26}$/);
    assert.equal(created.body.name, 'CI deploys');
    assert.deepEqual(created.body.scopes, ['read', 'agents:run']);
    assert.ok(parseApiKey(created.body.key).ok, 'a D2 key with a valid checksum');
    assert.match(created.body.key, /^svc_test_/);
    assert.ok(!Number.isNaN(Date.parse(created.body.created_at)));
    assert.ok(created.headers.get('x-ratelimit-remaining'));

    // Read-your-writes: the new key authenticates on the very next request.
    const own = await call('GET', '/v1/account', created.body.key);
    assert.equal(own.status, 200);
    assert.equal(own.body.id, admin.accountId);

    // Never again: neither the list nor the single key shows the value (or its hash).
    const list = await call('GET', '/v1/api-keys', admin.key);
    assert.equal(list.status, 200);
    assert.ok(!list.text.includes(created.body.key), 'the list must not contain the key value');
    assert.ok(
      !list.text.includes(
        parseApiKey(created.body.key).ok ? (parseApiKey(created.body.key) as { hash: string }).hash : 'x',
      ),
    );
    const item = list.body.data.find((k: Body) => k.id === created.body.id);
    assert.deepEqual(Object.keys(item).sort(), [
      'created_at',
      'id',
      'last_used_at',
      'name',
      'prefix',
      'revoked_at',
      'scopes',
    ]);
    assert.equal(item.name, 'CI deploys');
    assert.ok(created.body.key.startsWith(item.prefix) && item.prefix.length < 20, 'a short non-secret prefix');
    assert.equal(item.revoked_at, null);
    const one = await call('GET', `/v1/api-keys/${created.body.id}`, admin.key);
    assert.equal(one.status, 200);
    assert.deepEqual({ ...one.body, last_used_at: null }, { ...item, last_used_at: null });
    assert.ok(!one.text.includes(created.body.key));
  });

  it('DELETE → 204; the key fails on its very next request; deleting again → 404', async () => {
    const victim = await call('POST', '/v1/api-keys', admin.key, { name: 'to revoke', scopes: ['read'] });
    assert.equal((await call('GET', '/v1/repositories', victim.body.key)).status, 200);
    const del = await call('DELETE', `/v1/api-keys/${victim.body.id}`, admin.key);
    assert.equal(del.status, 204);
    assert.equal(del.text, '');
    const next = await call('GET', '/v1/repositories', victim.body.key);
    assert.equal(next.status, 401);
    assert.equal(next.body.code, 'REVOKED_KEY');
    assert.equal((await call('DELETE', `/v1/api-keys/${victim.body.id}`, admin.key)).status, 404);
    const shown = await call('GET', `/v1/api-keys/${victim.body.id}`, admin.key);
    assert.match(shown.body.revoked_at, /^\d{4}-/);
  });

  it('a key can revoke itself (rotation), and its next request fails', async () => {
    const self = await call('POST', '/v1/api-keys', admin.key, { name: 'self', scopes: ['admin'] });
    assert.equal((await call('DELETE', `/v1/api-keys/${self.body.id}`, self.body.key)).status, 204);
    assert.equal((await call('GET', '/v1/account', self.body.key)).body.code, 'REVOKED_KEY');
  });

  it("another account's keys are invisible: 404 on get and delete, absent from the list", async () => {
    const other = await createAccountWithKey(api.app, { scopes: ['admin'] });
    assert.equal((await call('GET', `/v1/api-keys/${other.keyId}`, admin.key)).status, 404);
    assert.equal((await call('DELETE', `/v1/api-keys/${other.keyId}`, admin.key)).status, 404);
    assert.ok(!(await listAll(admin.key)).some((k) => k.id === other.keyId));
    assert.equal((await call('GET', '/v1/account', other.key)).status, 200, 'the other key still works');
    assert.equal((await call('DELETE', '/v1/api-keys/not-an-id', admin.key)).status, 404);
  });

  it('an admin key may grant every scope (admin implies all; the creator rule is in the decider tests)', async () => {
    const all = await call('POST', '/v1/api-keys', admin.key, {
      name: 'all',
      scopes: ['read', 'write', 'admin', 'agents:run', 'agents:configure', 'repositories:manage'],
    });
    assert.equal(all.status, 201);
    assert.equal(all.body.scopes.length, 6);
  });

  it('malformed bodies, unknown fields and unknown scopes get 400 and create nothing', async () => {
    const before = (await listAll(admin.key)).length;
    const cases: Array<[unknown, string]> = [
      [{ name: 'x', scopes: ['read'], extra: true }, 'body.extra'],
      [{ name: 'x', scopes: ['root'] }, 'body.scopes.0'],
      [{ name: 'x', scopes: [] }, 'body.scopes'],
      [{ name: '', scopes: ['read'] }, 'body.name'],
      [{ scopes: ['read'] }, 'body.name'],
      [{ name: 'x' }, 'body.scopes'],
      [{ name: 'x', scopes: 'read' }, 'body.scopes'],
      [[], 'body'],
    ];
    for (const [body, path] of cases) {
      const res = await call('POST', '/v1/api-keys', admin.key, body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.code, 'VALIDATION_FAILED');
      assert.ok(
        res.body.details.some((d: { path: string }) => d.path === path),
        `${JSON.stringify(body)} → ${JSON.stringify(res.body.details)}`,
      );
    }
    const repeated = await call('POST', '/v1/api-keys', admin.key, { name: 'x', scopes: ['read', 'read'] });
    assert.equal(repeated.status, 400);
    const malformed = await call('POST', '/v1/api-keys', admin.key, '{"name": "x", "scopes": [');
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.code, 'MALFORMED_JSON');
    assert.equal((await listAll(admin.key)).length, before, 'nothing was created');
  });

  it('lists newest first by cursor pages (D6): limit default 20, at most 100; a bad cursor → 400', async () => {
    const account = await createAccountWithKey(api.app, { scopes: ['admin'] });
    for (let i = 0; i < 4; i++)
      assert.equal((await call('POST', '/v1/api-keys', account.key, { name: `k${i}`, scopes: ['read'] })).status, 201);
    const first = await call('GET', '/v1/api-keys?limit=2', account.key);
    assert.equal(first.status, 200);
    assert.deepEqual(
      first.body.data.map((k: Body) => k.name),
      ['k3', 'k2'],
    );
    assert.equal(first.body.has_more, true);
    assert.equal(typeof first.body.next_cursor, 'string');
    const second = await call(
      'GET',
      `/v1/api-keys?limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`,
      account.key,
    );
    assert.deepEqual(
      second.body.data.map((k: Body) => k.name),
      ['k1', 'k0'],
    );
    assert.equal(second.body.has_more, true);
    const last = await call(
      'GET',
      `/v1/api-keys?limit=2&cursor=${encodeURIComponent(second.body.next_cursor)}`,
      account.key,
    );
    assert.deepEqual(
      last.body.data.map((k: Body) => k.name),
      ['test key'],
    );
    assert.equal(last.body.has_more, false);
    assert.equal(last.body.next_cursor, null);
    assert.equal((await call('GET', '/v1/api-keys', account.key)).body.data.length, 5);

    for (const query of ['limit=0', 'limit=101', 'limit=abc', 'cursor=garbage', 'unknown=1']) {
      const res = await call('GET', `/v1/api-keys?${query}`, account.key);
      assert.equal(res.status, 400, query);
      assert.equal(res.body.code, 'VALIDATION_FAILED', query);
    }
  });

  it('tracks last_used_at without an event per request', async () => {
    const fresh = await createKey(api.app, admin.accountId, { scopes: ['read'] });
    const before = await call('GET', `/v1/api-keys/${fresh.keyId}`, admin.key);
    assert.equal(before.body.last_used_at, null);
    for (let i = 0; i < 3; i++) await call('GET', '/v1/repositories', fresh.key);
    // Written in the background, off the request path: poll for it.
    const lastUsed = await waitUntil(
      async () => (await call('GET', `/v1/api-keys/${fresh.keyId}`, admin.key)).body.last_used_at ?? undefined,
      10_000,
      'last_used_at',
    );
    assert.match(lastUsed, /^\d{4}-/);
    const stream = [];
    for await (const e of api.app.get<EventStore>(EVENT_STORE).readStream(`apikey-${fresh.keyId}`)) stream.push(e.type);
    assert.deepEqual(stream, ['ApiKeyCreated']);
  });
});
