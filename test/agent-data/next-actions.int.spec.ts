import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CommandBus } from '@nestjs/cqrs';
import { CreateTenantCommand, type CreatedTenant } from '#agent-workspace';
import { GrantCreditsCommand } from '#agent-billing';
import { type OpenApiDocument, operationLookup, type OperationRef } from '#http';
import { startTestApi, type TestApi } from '../api/support/test-api.js';
import { pay, payInSandbox, postJson, withKey } from './support/agent-client.js';

type Json = Record<string, any>;
interface Action {
  action: string;
  method: string;
  url: string;
  description?: string;
  operation_id?: string;
  retry_after_seconds?: number;
}

// Every 4xx of the agent surface says what to do next, with absolute URLs that
// lead somewhere. Each status is provoked on a real route of the real app.
describe('next_actions on every 4xx of the agent surface (real HTTP)', () => {
  const RATE_LIMIT = 10;
  let api: TestApi;
  let funded: string;
  let tenant: CreatedTenant;
  let operationAt: (method: string, path: string) => OperationRef | undefined;

  before(async () => {
    api = await startTestApi({ env: { SVC_AGENT_RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT) } });
    const issued = await pay(api.url);
    assert.equal((await payInSandbox(issued.starter_checkout.url)).status, 303);
    funded = issued.key.api_key;
    const commands = api.app.get(CommandBus);
    tenant = await commands.execute(new CreateTenantCommand('Next Actions Ventures'));
    await commands.execute(new GrantCreditsCommand({ keyId: tenant.key.id, creditsCents: 100_00, reference: 'PO-7' }));
    const doc = (await (await fetch(`${api.url}/docs/api/openapi.v1.json`)).json()) as OpenApiDocument;
    operationAt = operationLookup(doc);
  });
  after(async () => {
    await api?.close();
  });

  async function call(path: string, init: RequestInit = {}) {
    const res = await fetch(`${api.url}${path}`, init);
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : null) as Json };
  }

  /**
   * The answer is a problem+json `status` with non-empty next_actions of absolute URLs on this
   * service; each GET leads somewhere (not 404), each other method names a documented operation.
   */
  async function assertNextActions(
    answer: { status: number; headers: Headers; body: Json },
    status: number,
    key?: string,
  ): Promise<Action[]> {
    assert.equal(answer.status, status, JSON.stringify(answer.body));
    assert.match(answer.headers.get('content-type') ?? '', /^application\/problem\+json/);
    const actions = answer.body.next_actions as Action[];
    assert.ok(Array.isArray(actions) && actions.length > 0, `next_actions in ${JSON.stringify(answer.body)}`);
    for (const a of actions) {
      assert.equal(typeof a.action, 'string');
      assert.equal(typeof a.method, 'string');
      assert.ok(a.url.startsWith(`${api.url}/`), `absolute URL of this service: ${a.url}`);
      const target = new URL(a.url);
      if (a.method === 'GET') {
        if (a.action === 'retry_after' || a.action === 'retry') continue;
        const res = await fetch(`${target.origin}${target.pathname}${target.search}`, key ? withKey(key) : {});
        await res.arrayBuffer();
        assert.notEqual(res.status, 404, `GET ${a.url} leads somewhere`);
      } else {
        assert.ok(operationAt(a.method, target.pathname), `${a.method} ${target.pathname} is a documented operation`);
      }
    }
    return actions;
  }

  it('401 without a key: how to get a key; with a bad key: the ways back to its account first', async () => {
    const missing = await assertNextActions(await call('/api/v1/agents/keys', {}), 401);
    assert.deepEqual(
      missing.map((a) => `${a.method} ${new URL(a.url).pathname}`),
      ['POST /api/v1/agents/pay', 'POST /api/v1/agents/signup'],
    );
    const headers = { 'x-api-key': 'svc_test_notakeyatall' };
    const bad = await assertNextActions(await call('/api/v1/agents/keys', { headers }), 401);
    assert.deepEqual(
      bad.map((a) => `${a.method} ${new URL(a.url).pathname}`),
      [
        'GET /api/v1/agents/status',
        'POST /api/v1/agents/keys',
        'POST /api/v1/agents/pay',
        'POST /api/v1/agents/signup',
      ],
    );
  });

  it('403 for a self-serve key on the workspace: keeps its own (buy the enterprise pack, the enterprise upgrade), made absolute', async () => {
    const actions = await assertNextActions(await call('/api/v1/workspace/companies', withKey(funded)), 403, funded);
    assert.deepEqual(
      actions.map((a) => `${a.method} ${new URL(a.url).pathname}`),
      ['GET /api/v1/agents/checkout-link', 'GET /api/v1/agents/leads', 'POST /api/v1/agents/leads'],
    );
  });

  it('404 of an unknown company: the discovery list and the catalogue', async () => {
    const answer = await call('/api/v1/companies/nobody.example', withKey(funded));
    assert.equal(answer.body.code, 'COMPANY_NOT_FOUND');
    const actions = await assertNextActions(answer, 404, funded);
    assert.deepEqual(
      actions.map((a) => new URL(a.url).pathname),
      ['/api/v1/discovery/top', '/api/v1/agents/catalog'],
    );
  });

  it('405 of a path served with other methods: the OpenAPI document, then the error catalogue entry', async () => {
    const answer = await call('/api/v1/agents/catalog', { method: 'DELETE' });
    assert.equal(answer.body.code, 'METHOD_NOT_ALLOWED');
    assert.equal(answer.headers.get('allow'), 'GET, HEAD');
    const actions = await assertNextActions(answer, 405);
    assert.deepEqual(
      actions.map((a) => a.action),
      ['read_openapi', 'read_error'],
    );
  });

  it('404 of an unknown path (the router): the discovery list, the catalogue and the OpenAPI document', async () => {
    for (const [method, path] of [
      ['GET', '/api/v1/no-such-thing'],
      ['DELETE', '/api/v1/agents/no-such-thing'],
    ] as const) {
      const answer = await call(path, { method });
      assert.equal(answer.body.code, 'ROUTE_NOT_FOUND');
      const actions = await assertNextActions(answer, 404);
      assert.deepEqual(
        actions.map((a) => a.action),
        ['list_companies', 'view_catalog', 'read_openapi'],
      );
    }
  });

  it('404 in the workspace: the workspace company list instead', async () => {
    const answer = await call('/api/v1/workspace/companies/wco_000000000000000000000000', withKey(tenant.key.api_key));
    assert.equal(answer.body.code, 'WORKSPACE_COMPANY_NOT_FOUND');
    const actions = await assertNextActions(answer, 404, tenant.key.api_key);
    assert.deepEqual(
      actions.map((a) => `${a.method} ${new URL(a.url).pathname}`),
      ['GET /api/v1/workspace/companies'],
    );
  });

  it('400 of a bad query: the operation in the OpenAPI document, then the error catalogue entry', async () => {
    const answer = await call('/api/v1/discovery/top?limit=1000', withKey(funded));
    assert.equal(answer.body.code, 'VALIDATION_FAILED');
    const [docs, entry] = await assertNextActions(answer, 400, funded);
    const expected = operationAt('GET', '/api/v1/discovery/top')!;
    assert.equal(docs!.action, 'read_operation_docs');
    assert.equal(docs!.operation_id, expected.operationId);
    assert.equal(docs!.url, `${api.url}/docs/api/openapi.v1.yaml#/paths/~1api~1v1~1discovery~1top/get`);
    assert.equal(entry!.url, `${api.url}/api/v1/agents/errors#VALIDATION_FAILED`);
  });

  it('400 of an undecodable URL (answered by the router, before any route): the operation its shape names, then the error', async () => {
    const answer = await call('/api/v1/companies/%E0%A4%A');
    assert.equal(answer.body.code, 'MALFORMED_URL');
    const [docs, entry] = await assertNextActions(answer, 400);
    assert.equal(docs!.operation_id, operationAt('GET', '/api/v1/companies/x')!.operationId);
    assert.equal(entry!.url, `${api.url}/api/v1/agents/errors#MALFORMED_URL`);
  });

  it('400 of a bad body, 413 and 415 say the same (the operation, then the error)', async () => {
    const badBody = await call('/api/v1/agents/signup', postJson({ unexpected: true }));
    assert.equal(badBody.body.code, 'VALIDATION_FAILED');
    const [docs] = await assertNextActions(badBody, 400);
    assert.equal(docs!.operation_id, operationAt('POST', '/api/v1/agents/signup')!.operationId);

    const big = await call('/api/v1/agents/signup', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ use_case: 'x'.repeat(1024 * 1024 + 10) }),
    });
    const tooLarge = await assertNextActions(big, 413);
    assert.equal(tooLarge.at(-1)!.url, `${api.url}/api/v1/agents/errors#PAYLOAD_TOO_LARGE`);

    const xml = await call('/api/v1/agents/signup', {
      method: 'POST',
      headers: { 'content-type': 'application/xml' },
      body: '<signup/>',
    });
    const unsupported = await assertNextActions(xml, 415);
    assert.equal(unsupported.at(-1)!.url, `${api.url}/api/v1/agents/errors#UNSUPPORTED_MEDIA_TYPE`);
  });

  it('412 of a stale If-Match on a workspace memo: read the memo again', async () => {
    const added = await call(
      '/api/v1/workspace/companies',
      withKey(tenant.key.api_key, postJson({ name: 'Kappa Labs', domain: 'kappa-labs.example' })),
    );
    assert.equal(added.status, 201, JSON.stringify(added.body));
    const memo = `/api/v1/workspace/companies/${added.body.data.id}/memo`;
    const stale = await call(
      memo,
      withKey(tenant.key.api_key, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', 'if-match': '"7"' },
        body: JSON.stringify({ body: 'late' }),
      }),
    );
    assert.equal(stale.body.code, 'MEMO_VERSION_CONFLICT');
    const actions = await assertNextActions(stale, 412, tenant.key.api_key);
    assert.deepEqual(
      actions.map((a) => `${a.action} ${a.method} ${a.url}`),
      [`read_memo GET ${api.url}${memo}`],
    );
  });

  it('429 of a spent key: retry the same request after Retry-After seconds', async () => {
    const spender = (await pay(api.url)).key.api_key;
    let limited: Awaited<ReturnType<typeof call>> | undefined;
    // A window may turn over mid-way on the real clock: keep going until refused.
    for (let i = 0; i < RATE_LIMIT * 3 && !limited; i++) {
      const answer = await call('/api/v1/agents/keys', withKey(spender));
      if (answer.status === 429) limited = answer;
    }
    assert.ok(limited, 'the key was refused');
    const [retry] = await assertNextActions(limited, 429);
    assert.equal(retry!.action, 'retry_after');
    assert.equal(retry!.method, 'GET');
    assert.equal(retry!.url, `${api.url}/api/v1/agents/keys`);
    assert.equal(retry!.retry_after_seconds, Number(limited.headers.get('retry-after')));
  });

  it('402 keeps its own funding actions', async () => {
    const unfunded = (await pay(api.url)).key.api_key;
    const answer = await call('/api/v1/discovery/top', withKey(unfunded));
    assert.equal(answer.body.code, 'INSUFFICIENT_CREDITS');
    const actions = await assertNextActions(answer, 402, unfunded);
    assert.equal(actions[0]!.action, 'buy_credits');
  });

  it('a platform (/v1) error has no next_actions', async () => {
    for (const path of ['/v1/agents', '/v1/no-such-thing']) {
      const answer = await call(path);
      assert.ok(answer.status === 401 || answer.status === 404, `${path}: ${answer.status}`);
      assert.match(answer.headers.get('content-type') ?? '', /^application\/json/);
      assert.equal(answer.body.next_actions, undefined, path);
    }
  });
});
