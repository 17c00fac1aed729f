import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CommandBus } from '@nestjs/cqrs';
import { CreateTenantCommand, type CreatedTenant } from '#agent-workspace';
import { GrantCreditsCommand } from '#agent-billing';
import { startTestApi, type TestApi } from '../api/support/test-api.js';
import { status, withKey } from '../agent-data/support/agent-client.js';

type Json = Record<string, any>;

describe('follow-ups on the spec’s path: POST /api/v1/workspace/companies/{id}/follow-ups (real HTTP, metered)', () => {
  let api: TestApi;
  let tenant: CreatedTenant;
  let companyId: string;

  before(async () => {
    api = await startTestApi({ env: { SVC_BOOTSTRAP: 'false', SVC_DEMO_DATA: 'false' } });
    const commands = api.app.get(CommandBus);
    tenant = await commands.execute(new CreateTenantCommand('Follow-up Ventures'));
    await commands.execute(new GrantCreditsCommand({ keyId: tenant.key.id, creditsCents: 100_00, reference: 'PO-7' }));
    const added = await call('POST', '/workspace/companies', { name: 'Nord Labs', domain: 'nord-labs.example' });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    companyId = added.body.data.id;
  });
  after(async () => {
    await api?.close();
  });

  async function call(method: string, path: string, body?: unknown) {
    const res = await fetch(
      `${api.url}/api/v1${path}`,
      withKey(tenant.key.api_key, {
        method,
        ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
      }),
    );
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : null) as Json };
  }
  const balance = async () => (await status(api.url, tenant.key.api_key)).balance_usd as number;

  it('creates a follow-up under a key the service makes, charged write.workspace.followup once', async () => {
    const before = await balance();
    const created = await call('POST', `/workspace/companies/${companyId}/follow-ups`, {
      title: 'Send the term sheet',
      due_at: '2026-12-01T09:00:00Z',
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.headers.get('x-credits-charged'), '3.00');
    assert.match(created.body.data.key, /^fu_[0-9A-HJKMNP-TV-Z]{26}$/);
    assert.equal(created.body.data.status, 'open');
    assert.equal(await balance(), before - 3);
    const second = await call('POST', `/workspace/companies/${companyId}/follow-ups`, {
      title: 'Send the term sheet',
      due_at: '2026-12-01T09:00:00Z',
    });
    assert.equal(second.status, 201);
    assert.notEqual(second.body.data.key, created.body.data.key, 'without a key, each POST is a new follow-up');
  });

  it('with the client’s key it is an idempotent upsert: 201 created, 200 unchanged, 200 updated (done completes)', async () => {
    const path = `/workspace/companies/${companyId}/follow-ups`;
    const body = { key: 'call-founder', title: 'Call the founder', due_at: '2026-12-02T09:00:00Z', assignee: 'ana' };
    const created = await call('POST', path, body);
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.data.key, 'call-founder');
    const again = await call('POST', path, body);
    assert.equal(again.status, 200);
    assert.equal(again.body.data.created_at, created.body.data.created_at);
    const done = await call('POST', path, { ...body, status: 'done' });
    assert.equal(done.status, 200);
    assert.equal(done.body.data.status, 'done');
    assert.ok(done.body.data.completed_at);
    // The PUT by key addresses the same follow-up.
    const put = await call('PUT', `${path}/call-founder`, { title: 'Call the founder', due_at: body.due_at });
    assert.equal(put.status, 200);
    assert.equal(put.body.data.status, 'open');
    const list = await call('GET', path);
    assert.equal(list.body.data.data.filter((f: Json) => f.key === 'call-founder').length, 1);
    assert.equal(list.body.data.data.length, 3);
  });

  it('a refused request costs nothing and writes nothing (bad body, unknown field, unknown company)', async () => {
    const before = await balance();
    const listed = (await call('GET', `/workspace/companies/${companyId}/follow-ups`)).body.data.data.length;
    const afterList = await balance();
    const refusals: Array<[string, unknown, number, string]> = [
      [`/workspace/companies/${companyId}/follow-ups`, { due_at: '2026-12-01T09:00:00Z' }, 400, 'VALIDATION_FAILED'],
      [
        `/workspace/companies/${companyId}/follow-ups`,
        { title: 't', due_at: '2026-12-01T09:00:00Z', colour: 'red' },
        400,
        'VALIDATION_FAILED',
      ],
      [
        `/workspace/companies/${companyId}/follow-ups`,
        { title: 't', due_at: '2026-12-01T09:00:00Z', key: 'no spaces' },
        400,
        'VALIDATION_FAILED',
      ],
      [
        '/workspace/companies/wco_000000000000000000000000/follow-ups',
        { title: 't', due_at: '2026-12-01T09:00:00Z' },
        404,
        'WORKSPACE_COMPANY_NOT_FOUND',
      ],
    ];
    for (const [path, body, code, name] of refusals) {
      const res = await call('POST', path, body);
      assert.equal(res.status, code, JSON.stringify(res.body));
      assert.equal(res.body.code, name);
      assert.equal(res.headers.get('x-credits-charged'), null);
    }
    assert.equal(await balance(), afterList, 'the refusals cost nothing');
    assert.ok(afterList < before, 'the list was charged (the balance moves when something is charged)');
    const now = (await call('GET', `/workspace/companies/${companyId}/follow-ups`)).body.data.data.length;
    assert.equal(now, listed);
  });
});
