import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApi, type TestApi } from '../api/support/test-api.js';
import { createAccountWithKey } from '../platform/support/platform-fixtures.js';
import { client } from './support/http-client.js';

const SECRET = 'whsec-0123456789abcdef';

// One tenant must not fill the shared dispatchers with its own targets (OWASP API4).
describe('webhooks per account (SVC_WEBHOOKS_PER_ACCOUNT)', () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi({ env: { SVC_WEBHOOK_ALLOW_PRIVATE: 'true', SVC_WEBHOOKS_PER_ACCOUNT: '3' } });
  });
  after(async () => {
    await api?.close();
  });

  const create = (call: ReturnType<typeof client>, i: number) =>
    call('POST', '/v1/webhooks', {
      url: `https://hooks.example.com/${i}`,
      events: ['agent.completed'],
      secret: SECRET,
    });

  it('refuses the webhook past the limit with 409 WEBHOOK_LIMIT_REACHED; a deleted one frees its place', async () => {
    const call = client(api.url, (await createAccountWithKey(api.app)).key);
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await create(call, i));
    assert.deepEqual(
      made.map((r) => r.status),
      [201, 201, 201],
    );
    const refused = await create(call, 3);
    assert.equal(refused.status, 409);
    assert.equal(refused.body.code, 'WEBHOOK_LIMIT_REACHED');
    assert.equal(refused.body.limit, 3);
    assert.equal((await call('PATCH', `/v1/webhooks/${made[0]!.body.id}`, { active: false })).status, 200);
    assert.equal((await create(call, 4)).status, 409, 'a disabled webhook still counts');
    assert.equal((await call('DELETE', `/v1/webhooks/${made[1]!.body.id}`)).status, 204);
    assert.equal((await create(call, 5)).status, 201);
  });

  it('holds under concurrent creations, and per account: another account has its own budget', async () => {
    const call = client(api.url, (await createAccountWithKey(api.app)).key);
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => create(call, 100 + i)));
    assert.equal(answers.filter((r) => r.status === 201).length, 3);
    assert.equal(answers.filter((r) => r.status === 409).length, 5);
    const list = await call('GET', '/v1/webhooks?limit=100');
    assert.equal(list.body.data.length, 3);
    const other = client(api.url, (await createAccountWithKey(api.app)).key);
    assert.equal((await create(other, 200)).status, 201);
  });
});
