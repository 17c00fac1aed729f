import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { generateApiKey } from '#access';
import { startTestApi, type TestApi } from '../api/support/test-api.js';
import { bearer, createAccountWithKey, createKey, type TestAccount } from './support/platform-fixtures.js';

type Body = Record<string, unknown>;

/** Every 401 is exactly `{error: "unauthorized", message, code}` with a Bearer challenge. */
async function assertUnauthorized(res: Response, code: string, invalidToken: boolean): Promise<Body> {
  assert.equal(res.status, 401);
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
  const body = (await res.json()) as Body;
  assert.deepEqual(Object.keys(body).sort(), ['code', 'error', 'message']);
  assert.equal(body.error, 'unauthorized');
  assert.equal(body.code, code);
  assert.ok(typeof body.message === 'string' && body.message.length > 0);
  const challenge = res.headers.get('www-authenticate') ?? '';
  assert.match(challenge, /^Bearer realm="svc"/);
  if (invalidToken) assert.match(challenge, /error="invalid_token"/);
  else assert.doesNotMatch(challenge, /error=/);
  // Nothing is counted before the caller is known.
  assert.equal(res.headers.get('x-ratelimit-limit'), null);
  return body;
}

/** Same key with one character of its random part changed and the checksum kept: fails the CRC. */
function corrupt(key: string): string {
  const i = 'svc_test_'.length + 5;
  return key.slice(0, i) + (key[i] === 'a' ? 'b' : 'a') + key.slice(i + 1);
}

describe('platform bearer authentication (real HTTP, embedded stores)', () => {
  let api: TestApi;
  let admin: TestAccount;
  before(async () => {
    api = await startTestApi();
    admin = await createAccountWithKey(api.app, { plan: 'team', scopes: ['admin'] });
  });
  after(async () => {
    await api?.close();
  });

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${api.url}${path}`, { headers });

  it('accepts a valid key and answers with the rate-limit headers', async () => {
    const res = await get('/v1/repositories', bearer(admin.key));
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { data: [], has_more: false, next_cursor: null });
    assert.equal(res.headers.get('x-ratelimit-limit'), '300');
    assert.match(res.headers.get('x-ratelimit-remaining') ?? '', /^\d+$/);
    assert.match(res.headers.get('x-ratelimit-reset') ?? '', /^\d{10}$/);
  });

  it('401 MISSING_AUTH without a bearer credential (no header, another scheme, malformed header)', async () => {
    await assertUnauthorized(await get('/v1/repositories'), 'MISSING_AUTH', false);
    await assertUnauthorized(
      await get('/v1/repositories', { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }),
      'MISSING_AUTH',
      false,
    );
    await assertUnauthorized(await get('/v1/repositories', { authorization: 'Bearer' }), 'MISSING_AUTH', false);
    await assertUnauthorized(
      await get('/v1/repositories', { authorization: `Bearer ${admin.key} extra` }),
      'MISSING_AUTH',
      false,
    );
  });

  it('takes the key from the Authorization header only, never from the query string', async () => {
    await assertUnauthorized(await get(`/v1/repositories?access_token=${admin.key}`), 'MISSING_AUTH', false);
  });

  it('401 INVALID_KEY for a bad checksum, a malformed key, an unknown key and an unknown token kind', async () => {
    const checksum = await assertUnauthorized(
      await get('/v1/repositories', bearer(corrupt(admin.key))),
      'INVALID_KEY',
      true,
    );
    assert.match(checksum.message as string, /checksum/);
    await assertUnauthorized(await get('/v1/repositories', bearer('svc_test_short')), 'INVALID_KEY', true);
    await assertUnauthorized(await get('/v1/repositories', bearer(generateApiKey('test'))), 'INVALID_KEY', true);
    await assertUnauthorized(await get('/v1/repositories', bearer('eyJhbGciOi.not.a-key')), 'INVALID_KEY', true);
  });

  it('401 KEY_WRONG_ENVIRONMENT for a live key on a test deployment (checked before any lookup)', async () => {
    const body = await assertUnauthorized(
      await get('/v1/repositories', bearer(generateApiKey('live'))),
      'KEY_WRONG_ENVIRONMENT',
      true,
    );
    assert.match(body.message as string, /live/);
  });

  it('401 KEY_WRONG_SURFACE for a key the agent surface issued (D1)', async () => {
    const agentKey = await createKey(api.app, admin.accountId, { scopes: ['read'], surface: 'agent' });
    await assertUnauthorized(await get('/v1/repositories', bearer(agentKey.key)), 'KEY_WRONG_SURFACE', true);
  });

  it('401 REVOKED_KEY for a revoked key', async () => {
    const victim = await createKey(api.app, admin.accountId, { scopes: ['read'] });
    assert.equal((await get('/v1/repositories', bearer(victim.key))).status, 200);
    const del = await fetch(`${api.url}/v1/api-keys/${victim.keyId}`, { method: 'DELETE', headers: bearer(admin.key) });
    assert.equal(del.status, 204);
    await assertUnauthorized(await get('/v1/repositories', bearer(victim.key)), 'REVOKED_KEY', true);
  });

  it('403 INSUFFICIENT_SCOPE (D3) with required_scope, after authentication, with the rate-limit headers', async () => {
    const reader = await createKey(api.app, admin.accountId, { scopes: ['read'] });
    const res = await fetch(`${api.url}/v1/api-keys`, {
      method: 'POST',
      headers: { ...bearer(reader.key), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x', scopes: ['read'] }),
    });
    assert.equal(res.status, 403);
    const body = (await res.json()) as Body;
    assert.deepEqual(Object.keys(body).sort(), ['code', 'error', 'message', 'required_scope']);
    assert.equal(body.error, 'forbidden');
    assert.equal(body.code, 'INSUFFICIENT_SCOPE');
    assert.equal(body.required_scope, 'admin');
    assert.equal(res.headers.get('x-ratelimit-limit'), '300');
    // GET needs read (D3 default); a key with only agents:run lacks it.
    const runner = await createKey(api.app, admin.accountId, { scopes: ['agents:run'] });
    const denied = await get('/v1/repositories', bearer(runner.key));
    assert.equal(denied.status, 403);
    assert.equal(((await denied.json()) as Body).required_scope, 'read');
    // write implies read.
    const writer = await createKey(api.app, admin.accountId, { scopes: ['write'] });
    assert.equal((await get('/v1/account', bearer(writer.key))).status, 200);
  });

  it('404 and 400 after authentication carry the rate-limit headers too', async () => {
    const missing = await get('/v1/api-keys/key_01JZZZZZZZZZZZZZZZZZZZZZZZ', bearer(admin.key));
    assert.equal(missing.status, 404);
    assert.equal(((await missing.json()) as Body).code, 'KEY_NOT_FOUND');
    assert.ok(missing.headers.get('x-ratelimit-remaining'));
    const invalid = await get('/v1/api-keys?limit=1000', bearer(admin.key));
    assert.equal(invalid.status, 400);
    assert.equal(((await invalid.json()) as Body).code, 'VALIDATION_FAILED');
    assert.ok(invalid.headers.get('x-ratelimit-remaining'));
  });

  it('documents every platform operation with the bearer scheme and the 401/403/429 answers', async () => {
    const doc = parse(await (await fetch(`${api.url}/docs/api/openapi.v1.yaml`)).text()) as {
      paths: Record<
        string,
        Record<string, { security?: unknown; responses: Record<string, { headers?: Record<string, unknown> }> }>
      >;
    };
    const operations = [
      ['/v1/api-keys', 'post'],
      ['/v1/api-keys', 'get'],
      ['/v1/api-keys/{key_id}', 'get'],
      ['/v1/api-keys/{key_id}', 'delete'],
      ['/v1/account', 'get'],
      ['/v1/repositories', 'get'],
    ] as const;
    for (const [path, method] of operations) {
      const op = doc.paths[path]?.[method];
      assert.ok(op, `${method} ${path} is documented`);
      assert.deepEqual(op.security, [{ bearer: [] }]);
      for (const status of ['401', '403', '429'])
        assert.ok(op.responses[status], `${method} ${path} documents ${status}`);
      assert.ok(op.responses['429']!.headers?.['Retry-After']);
    }
    assert.ok(doc.paths['/v1/api-keys']!.post!.responses['201']!.headers?.['X-RateLimit-Remaining']);
  });

  it('GET /v1/account shows the caller’s account with its plan and limits', async () => {
    const res = await get('/v1/account', bearer(admin.key));
    assert.equal(res.status, 200);
    const body = (await res.json()) as Body;
    assert.equal(body.id, admin.accountId);
    assert.equal(body.plan, 'team');
    assert.deepEqual(body.limits, { per_minute: 300, per_hour: 10000 });
  });
});
