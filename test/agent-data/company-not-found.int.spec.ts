import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { companyIdFor } from '#agent-ventures';
import { startTestApi, type TestApi } from '../api/support/test-api.js';
import { pay, payInSandbox, status, withKey } from './support/agent-client.js';

describe('unknown company on the agent surface (real HTTP)', () => {
  let api: TestApi;
  let key: string;
  before(async () => {
    api = await startTestApi();
    const issued = await pay(api.url);
    assert.equal((await payInSandbox(issued.starter_checkout.url)).status, 303);
    key = issued.key.api_key;
  });
  after(async () => {
    await api?.close();
  });

  it('GET /companies/{id} and /companies/{id}/score answer 404 COMPANY_NOT_FOUND, a catalogued code, and charge nothing', async () => {
    const errors = (await (await fetch(`${api.url}/api/v1/agents/errors`)).json()) as {
      data: { errors: Array<Record<string, unknown>> };
    };
    const entry = errors.data.errors.find((e) => e.code === 'COMPANY_NOT_FOUND');
    assert.ok(entry, 'COMPANY_NOT_FOUND is in /agents/errors');
    assert.equal(entry.status, 404);
    assert.equal(entry.error, 'not_found');
    assert.ok(String(entry.meaning).length > 0 && String(entry.action).length > 0);
    assert.equal(entry.type, `${api.url}/api/v1/agents/errors#COMPANY_NOT_FOUND`);

    const balance = (await status(api.url, key)).balance_usd;
    for (const id of [companyIdFor('nobody.example'), 'nobody.example', 'not-an-id']) {
      for (const path of [`/api/v1/companies/${id}`, `/api/v1/companies/${id}/score`]) {
        const res = await fetch(`${api.url}${path}`, withKey(key));
        assert.equal(res.status, 404, path);
        assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
        assert.equal(res.headers.get('x-credits-charged'), null, path);
        const body = (await res.json()) as Record<string, unknown>;
        assert.equal(body.code, 'COMPANY_NOT_FOUND', path);
        assert.equal(body.error, 'not_found');
        assert.equal(body.type, '/api/v1/agents/errors#COMPANY_NOT_FOUND');
      }
    }
    assert.equal((await status(api.url, key)).balance_usd, balance);
  });
});
