import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CommandBus } from '@nestjs/cqrs';
import { CreateApiKeyCommand } from '#access';
import { AGENT_ENDPOINTS, DESCRIPTOR_PATHS } from '#agent-contract';
import { CreateTenantCommand } from '#agent-workspace';
import { CreateAccountCommand } from '#identity';
import { startTestApi, type TestApi } from './support/test-api.js';
import { pay, postJson, withKey } from '../agent-data/support/agent-client.js';

type Json = Record<string, any>;

// The smaller breaks met along the journeys, on both surfaces.
describe('paths: the /api/v1 index, 405 with Allow, empty JSON bodies, every answered code catalogued', () => {
  let api: TestApi;
  let commands: CommandBus;
  before(async () => {
    api = await startTestApi();
    commands = api.app.get(CommandBus);
  });
  after(async () => {
    await api?.close();
  });

  const send = async (method: string, path: string, init: RequestInit = {}) => {
    const res = await fetch(`${api.url}${path}`, { method, redirect: 'manual', ...init });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : null) as Json };
  };
  const emptyJson = { 'content-type': 'application/json' };

  it('GET /api/v1 answers the entry points by name, rendered from the agent-surface table', async () => {
    const res = await send('GET', '/api/v1');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.version, 'v1');
    const index = res.body.data;
    assert.equal(index.api_base_url, `${api.url}/api/v1`);
    assert.deepEqual(
      index.endpoints,
      Object.fromEntries(
        AGENT_ENDPOINTS.filter((e) => e.status !== 'planned').map((e) => [e.name, `${api.url}/api/v1${e.path}`]),
      ),
    );
    assert.equal(index.endpoints.workspace_followup, `${api.url}/api/v1/workspace/companies/{id}/follow-ups`);
    assert.deepEqual(
      index.descriptors,
      Object.fromEntries(Object.entries(DESCRIPTOR_PATHS).map(([name, path]) => [name, `${api.url}${path}`])),
    );
    // The base the descriptors give is this index, and its links lead somewhere.
    const manifest = await send('GET', '/api/v1/agents/manifest');
    assert.equal(manifest.body.data.base_url, index.api_base_url);
    for (const name of ['errors', 'catalog', 'capabilities'])
      assert.equal((await fetch(index.endpoints[name])).status, 200, name);
  });

  it('a path served with other methods answers 405 with Allow, on both surfaces; an unknown path stays 404', async () => {
    const signup = await send('GET', '/api/v1/agents/signup');
    assert.equal(signup.status, 405, JSON.stringify(signup.body));
    assert.equal(signup.headers.get('allow'), 'POST');
    assert.match(signup.headers.get('content-type') ?? '', /^application\/problem\+json/);
    assert.equal(signup.body.code, 'METHOD_NOT_ALLOWED');
    assert.equal(signup.body.error, 'method_not_allowed');
    assert.equal(signup.body.status, 405);
    assert.match(signup.body.type, /\/api\/v1\/agents\/errors#METHOD_NOT_ALLOWED$/);
    assert.ok(signup.body.next_actions.length > 0);

    const memo = await send('DELETE', '/api/v1/workspace/companies/wco_000000000000000000000000/memo');
    assert.equal(memo.status, 405);
    assert.equal(memo.headers.get('allow'), 'GET, HEAD, PATCH');
    const followUps = await send('PATCH', '/api/v1/workspace/companies/wco_000000000000000000000000/follow-ups');
    assert.equal(followUps.headers.get('allow'), 'GET, HEAD, POST');

    const platform = await send('PUT', '/v1/api-keys');
    assert.equal(platform.status, 405);
    assert.equal(platform.headers.get('allow'), 'GET, HEAD, POST');
    assert.match(platform.headers.get('content-type') ?? '', /^application\/json/);
    assert.deepEqual(
      [platform.body.error, platform.body.code, typeof platform.body.message],
      ['method_not_allowed', 'METHOD_NOT_ALLOWED', 'string'],
    );
    const oauth = await send('GET', '/oauth/token');
    assert.equal(oauth.status, 405);
    assert.equal(oauth.headers.get('allow'), 'POST');
    const head = await fetch(`${api.url}/api/v1/agents/leads/x`, { method: 'HEAD' });
    assert.equal(head.status, 404, 'a path no route has');

    for (const path of ['/api/v1/nothing-here', '/v1/nothing-here'] as const) {
      const unknown = await send('GET', path);
      assert.equal(unknown.status, 404, path);
      assert.equal(unknown.body.code, 'ROUTE_NOT_FOUND');
      assert.equal(unknown.headers.get('allow'), null);
    }
  });

  it('DELETE (and POST) with Content-Type: application/json and no body are taken as sent without a body; malformed JSON stays 400', async () => {
    const issued = await pay(api.url);
    const second = (
      (await (
        await fetch(`${api.url}/api/v1/agents/keys`, withKey(issued.key.api_key, postJson({ name: 'b' })))
      ).json()) as {
        key: { id: string };
      }
    ).key;
    const revoked = await send(
      'DELETE',
      `/api/v1/agents/keys/${second.id}`,
      withKey(issued.key.api_key, { headers: emptyJson }),
    );
    assert.equal(revoked.status, 204, JSON.stringify(revoked.body));

    const account = await commands.execute(new CreateAccountCommand({ name: 'paths co', plan: 'team' }));
    const key = (name: string) =>
      commands.execute(
        new CreateApiKeyCommand({ accountId: account.accountId, name, scopes: ['admin'], creator: { operator: true } }),
      );
    const admin = await key('admin');
    const spare = await key('spare');
    const platform = await send('DELETE', `/v1/api-keys/${spare.id}`, {
      headers: { ...emptyJson, authorization: `Bearer ${admin.key}` },
    });
    assert.ok(platform.status >= 200 && platform.status < 300, `${platform.status} ${JSON.stringify(platform.body)}`);

    const payWithoutBody = await send('POST', '/api/v1/agents/pay', { headers: emptyJson });
    assert.equal(payWithoutBody.status, 201, 'POST /agents/pay takes no body');
    const leadWithoutBody = await send('POST', '/api/v1/agents/leads', { headers: emptyJson });
    assert.equal(leadWithoutBody.status, 400);
    assert.equal(leadWithoutBody.body.code, 'VALIDATION_FAILED', 'a body that is required is still asked for');
    for (const body of ['{', '{"a":', ' '] as const) {
      const malformed = await send('DELETE', `/api/v1/agents/keys/${second.id}`, {
        ...withKey(issued.key.api_key, { headers: emptyJson }),
        body,
      });
      assert.equal(malformed.status, 400, JSON.stringify(body));
      assert.equal(malformed.body.code, 'MALFORMED_JSON');
    }
  });

  it('WEBHOOK_NOT_FOUND and METHOD_NOT_ALLOWED, answered on the agent surface, are in /agents/errors', async () => {
    const tenant = await commands.execute(new CreateTenantCommand('Paths Capital'));
    const gone = await send(
      'DELETE',
      '/api/v1/workspace/webhooks/subscriptions/wh_01JAAAAAAAAAAAAAAAAAAAAAAA',
      withKey(tenant.key.api_key, { headers: emptyJson }),
    );
    assert.equal(gone.status, 404, JSON.stringify(gone.body));
    assert.equal(gone.body.code, 'WEBHOOK_NOT_FOUND');
    const catalogue = (await send('GET', '/api/v1/agents/errors')).body.data.errors as Json[];
    const statusOf = (code: string) => catalogue.find((e) => e.code === code)?.status;
    assert.equal(statusOf('WEBHOOK_NOT_FOUND'), 404);
    assert.equal(statusOf('METHOD_NOT_ALLOWED'), 405);
  });
});
