// Over 400 lines on purpose: the quickstart workflows of the enterprise workspace, one started app
// shared by its steps in order (a tenant's records build on each other).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CommandBus } from '@nestjs/cqrs';
import { CreateTenantCommand, type CreatedTenant, IssueTenantKeyCommand, WORKSPACE_PROJECTION } from '#agent-workspace';
import { GrantCreditsCommand } from '#agent-billing';
import { ProjectionRunner, ProjectionStore } from '#projections';
import { startTestApi, type TestApi, waitUntil } from '../api/support/test-api.js';
import { pay, withKey } from '../agent-data/support/agent-client.js';

type Json = Record<string, any>;

describe('enterprise workspace: tenants, records, the tenant event stream (real HTTP, metered)', () => {
  let api: TestApi;
  let commands: CommandBus;
  let tenant: CreatedTenant;
  let other: CreatedTenant;
  let companyId: string;
  let dealId: string;

  before(async () => {
    api = await startTestApi({ env: { SVC_BOOTSTRAP: 'false', SVC_DEMO_DATA: 'true' } });
    commands = api.app.get(CommandBus);
    tenant = await commands.execute(new CreateTenantCommand('Acme Ventures'));
    other = await commands.execute(new CreateTenantCommand('Other Capital'));
  });
  after(async () => {
    await api?.close();
  });

  async function call(key: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await fetch(
      `${api.url}/api/v1${path}`,
      withKey(key, {
        method,
        headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : null) as Json };
  }

  it('a self-serve key gets 403 WORKSPACE_REQUIRES_ENTERPRISE with next actions, and nothing is charged', async () => {
    const selfServe = await pay(api.url);
    const res = await call(selfServe.key.api_key, 'GET', '/workspace/companies');
    assert.equal(res.status, 403);
    assert.equal(res.body.code, 'WORKSPACE_REQUIRES_ENTERPRISE');
    assert.deepEqual(
      res.body.next_actions.map((a: Json) => `${a.method} ${new URL(a.url).pathname}`),
      ['GET /api/v1/agents/checkout-link', 'GET /api/v1/agents/leads', 'POST /api/v1/agents/leads'],
    );
    const buy = new URL(res.body.next_actions[0].url);
    assert.equal(buy.searchParams.get('pack_id'), 'pack_10000', 'the enterprise pack, bound to the calling key');
    assert.equal(buy.searchParams.get('key_id'), selfServe.key.id);
  });

  it('a tenant key without credits gets the 402 of its meter; a grant funds it', async () => {
    const unfunded = await call(tenant.key.api_key, 'GET', '/workspace/companies');
    assert.equal(unfunded.status, 402);
    assert.equal(unfunded.body.meter, 'read.workspace.company');
    assert.equal(unfunded.body.price_usd, 3);
    const granted = await commands.execute(
      new GrantCreditsCommand({ keyId: tenant.key.id, creditsCents: 1000_00, reference: 'PO-1' }),
    );
    assert.equal(granted.balance_usd, 1000);
    await commands.execute(new GrantCreditsCommand({ keyId: other.key.id, creditsCents: 100_00, reference: 'PO-1' }));
  });

  it('read a tenant workspace: add a company of the universe (6.00), list (3.00), read the memo (3.00)', async () => {
    const profiles = api.app
      .get(ProjectionStore)
      .collection<{ id: string; name: string; domain: string }>('company-profiles', 'company_profiles');
    const universe = await waitUntil(
      async () => (await profiles.find({}, { limit: 1 })).items[0],
      10_000,
      'demo companies',
    );
    const added = await call(tenant.key.api_key, 'POST', '/workspace/companies', {
      company_id: universe.id,
      owner: 'ana',
    });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    assert.equal(added.headers.get('x-credits-charged'), '6.00');
    companyId = added.body.data.id;
    assert.match(companyId, /^wco_[0-9a-f]{24}$/);
    assert.equal(added.body.data.name, universe.name);
    assert.equal(added.body.data.profile.id, universe.id, 'the profile is copied');
    assert.ok(added.body.data.score, 'the score is copied');

    const again = await call(tenant.key.api_key, 'POST', '/workspace/companies', { company_id: universe.id });
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'WORKSPACE_COMPANY_EXISTS');
    const manual = await call(tenant.key.api_key, 'POST', '/workspace/companies', {
      name: 'Zeta Robotics',
      domain: 'zeta-robotics.example',
    });
    assert.equal(manual.status, 201);

    const list = await call(tenant.key.api_key, 'GET', '/workspace/companies?owner=ana');
    assert.equal(list.status, 200);
    assert.equal(list.headers.get('x-credits-charged'), '3.00');
    assert.deepEqual(
      list.body.data.data.map((c: Json) => c.id),
      [companyId],
    );
    const byName = await call(tenant.key.api_key, 'GET', '/workspace/companies?q=zeta');
    assert.deepEqual(
      byName.body.data.data.map((c: Json) => c.name),
      ['Zeta Robotics'],
    );

    const memo = await call(tenant.key.api_key, 'GET', `/workspace/companies/${companyId}/memo`);
    assert.equal(memo.status, 200);
    assert.equal(memo.headers.get('etag'), '"0"');
    assert.equal(memo.headers.get('x-credits-charged'), '3.00');
    assert.deepEqual(memo.body.data, {
      company_id: companyId,
      version: 0,
      body: '',
      updated_at: null,
      updated_by: null,
    });
    // 1000 − 6 − 6 (the manual add) − 3 − 3 (q) − 3 = 979; the 409 cost nothing.
    assert.equal(memo.headers.get('x-credits-balance'), '979.00');
  });

  it('update a memo: If-Match applies to its version only (412 otherwise, not charged); versions from the events', async () => {
    const first = await call(
      tenant.key.api_key,
      'PATCH',
      `/workspace/companies/${companyId}/memo`,
      { body: '# Thesis\nStrong team.' },
      { 'if-match': '"0"' },
    );
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.headers.get('etag'), '"1"');
    assert.equal(first.headers.get('x-credits-charged'), '6.00');
    assert.equal(first.body.data.version, 1);
    assert.equal(first.body.data.updated_by, tenant.key.id);

    const stale = await call(
      tenant.key.api_key,
      'PATCH',
      `/workspace/companies/${companyId}/memo`,
      { body: 'lost update' },
      { 'if-match': '"0"' },
    );
    assert.equal(stale.status, 412);
    assert.equal(stale.body.code, 'MEMO_VERSION_CONFLICT');
    assert.equal(stale.body.current_version, 1);
    assert.equal(stale.headers.get('x-credits-charged'), null);

    const blind = await call(tenant.key.api_key, 'PATCH', `/workspace/companies/${companyId}/memo`, {
      body: '# Thesis\nStrong team, fast growth.',
    });
    // If-Match is optional (ADR 0073): without it the last writer wins, charged as any write,
    // and the version it replaced stays listed (below).
    assert.equal(blind.status, 200, JSON.stringify(blind.body));
    assert.equal(blind.body.data.version, 2, 'without If-Match the last writer wins');
    assert.equal(blind.headers.get('x-credits-charged'), '6.00');
    const read = await call(tenant.key.api_key, 'GET', `/workspace/companies/${companyId}/memo`);
    assert.equal(read.body.data.body, '# Thesis\nStrong team, fast growth.');
    assert.equal(read.headers.get('etag'), '"2"');

    const versions = await call(tenant.key.api_key, 'GET', `/workspace/companies/${companyId}/memo/versions?limit=1`);
    assert.deepEqual(
      versions.body.data.data.map((v: Json) => v.version),
      [2],
    );
    const older = await call(
      tenant.key.api_key,
      'GET',
      `/workspace/companies/${companyId}/memo/versions?limit=1&cursor=${versions.body.data.next_cursor}`,
    );
    assert.deepEqual(
      older.body.data.data.map((v: Json) => [v.version, v.body]),
      [[1, '# Thesis\nStrong team.']],
    );
    assert.equal(older.body.data.has_more, false);

    const unknownField = await call(tenant.key.api_key, 'PATCH', `/workspace/companies/${companyId}/memo`, {
      body: 'x',
      title: 'no',
    });
    assert.equal(unknownField.status, 400);
    assert.equal(unknownField.headers.get('x-credits-charged'), null);

    // The operation says so: If-Match optional, last writer wins.
    const doc = (await (await fetch(`${api.url}/docs/api/openapi.v1.json`)).json()) as Json;
    const described = doc.paths['/api/v1/workspace/companies/{id}/memo'].patch.description as string;
    assert.match(described, /`If-Match` is optional/);
    assert.match(described, /Without it the last writer wins/);
  });

  it('update a deal: stage moves follow the rule (a closed deal only reopens to screening)', async () => {
    const created = await call(tenant.key.api_key, 'POST', '/workspace/deals', {
      company_id: companyId,
      name: 'Seed',
      amount_usd: 500000,
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    dealId = created.body.data.id;
    assert.equal(created.body.data.stage, 'sourced');
    const won = await call(tenant.key.api_key, 'PATCH', `/workspace/deals/${dealId}`, {
      stage: 'closed_won',
      next_step: 'wire',
    });
    assert.equal(won.status, 200);
    assert.equal(won.headers.get('x-credits-charged'), '6.00');
    assert.deepEqual([won.body.data.stage, won.body.data.next_step], ['closed_won', 'wire']);
    const refused = await call(tenant.key.api_key, 'PATCH', `/workspace/deals/${dealId}`, { stage: 'diligence' });
    assert.equal(refused.status, 409);
    assert.equal(refused.body.code, 'DEAL_STAGE_TRANSITION_NOT_ALLOWED');
    assert.deepEqual(refused.body.allowed, ['screening']);
    assert.equal(refused.headers.get('x-credits-charged'), null);
    const reopened = await call(tenant.key.api_key, 'PATCH', `/workspace/deals/${dealId}`, { stage: 'screening' });
    assert.equal(reopened.body.data.stage, 'screening');
    const list = await call(tenant.key.api_key, 'GET', '/workspace/deals?stage=screening');
    assert.deepEqual(
      list.body.data.data.map((d: Json) => d.id),
      [dealId],
    );
    assert.equal((await call(tenant.key.api_key, 'GET', '/workspace/deals?stage=closed_won')).body.data.data.length, 0);
  });

  it('follow-ups: PUT creates (201), the same PUT changes nothing (200), done completes', async () => {
    const path = `/workspace/companies/${companyId}/follow-ups/call-founder`;
    const body = { title: 'Call the founder', due_at: '2026-12-01T09:00:00Z', assignee: 'ana' };
    const created = await call(tenant.key.api_key, 'PUT', path, body);
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.headers.get('x-credits-charged'), '3.00');
    assert.equal(created.body.data.status, 'open');
    const same = await call(tenant.key.api_key, 'PUT', path, body);
    assert.equal(same.status, 200);
    const done = await call(tenant.key.api_key, 'PUT', path, { ...body, status: 'done' });
    assert.equal(done.body.data.status, 'done');
    assert.ok(done.body.data.completed_at);
    const list = await call(tenant.key.api_key, 'GET', `/workspace/companies/${companyId}/follow-ups`);
    assert.deepEqual(
      list.body.data.data.map((f: Json) => [f.key, f.status]),
      [['call-founder', 'done']],
    );
  });

  it('the tenant event stream: every event in order with stable ids, types filter, cursor paging', async () => {
    const all = await call(tenant.key.api_key, 'GET', '/workspace/events?limit=100');
    assert.equal(all.status, 200);
    assert.equal(all.headers.get('x-credits-charged'), '2.00');
    assert.deepEqual(
      all.body.data.data.map((e: Json) => e.type),
      [
        'workspace.company.added',
        'workspace.company.added',
        'workspace.memo.updated',
        'workspace.memo.updated',
        'workspace.deal.created',
        'workspace.deal.stage_changed',
        'workspace.deal.updated',
        'workspace.deal.stage_changed',
        'workspace.followup.upserted',
        'workspace.followup.upserted',
        'workspace.followup.completed',
      ],
    );
    assert.ok(all.body.data.data.every((e: Json) => e.data.tenant_id === undefined && typeof e.id === 'string'));
    let cursor: string | undefined;
    const paged: string[] = [];
    for (let i = 0; i < 20; i++) {
      const page = await call(
        tenant.key.api_key,
        'GET',
        `/workspace/events?limit=3${cursor ? `&after=${cursor}` : ''}`,
      );
      paged.push(...page.body.data.data.map((e: Json) => e.id));
      cursor = page.body.data.next_cursor;
      if (!page.body.data.has_more) break;
    }
    assert.deepEqual(
      paged,
      all.body.data.data.map((e: Json) => e.id),
    );
    const memos = await call(tenant.key.api_key, 'GET', '/workspace/events?types=workspace.memo.updated');
    assert.deepEqual(
      memos.body.data.data.map((e: Json) => e.data.version),
      [1, 2],
    );
    const badType = await call(tenant.key.api_key, 'GET', '/workspace/events?types=workspace.nope');
    assert.equal(badType.status, 400);
    assert.equal(
      (await call(other.key.api_key, 'GET', '/workspace/events')).body.data.data.length,
      0,
      'another tenant sees none',
    );
  });

  it('a long poll answers as soon as an event arrives, and pays one call', async () => {
    const head = (await call(tenant.key.api_key, 'GET', '/workspace/events?limit=1000')).body.data.next_cursor;
    const started = performance.now();
    const polling = call(tenant.key.api_key, 'GET', `/workspace/events?after=${head}&wait_seconds=20`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await call(tenant.key.api_key, 'PATCH', `/workspace/companies/${companyId}/memo`, { body: 'v3' });
    const answered = await polling;
    const waited = performance.now() - started;
    assert.equal(answered.status, 200);
    assert.deepEqual(
      answered.body.data.data.map((e: Json) => [e.type, e.data.version]),
      [['workspace.memo.updated', 3]],
    );
    // Well before the 20 s wait: answered by the event, not the deadline (room for a starved CI process).
    assert.ok(waited < 15_000, `answered after ${Math.round(waited)} ms`);
    assert.equal(answered.headers.get('x-credits-charged'), '2.00');
    const empty = await call(
      tenant.key.api_key,
      'GET',
      `/workspace/events?after=${answered.body.data.next_cursor}&wait_seconds=1`,
    );
    assert.deepEqual(empty.body.data.data, []);
    assert.equal(empty.body.data.next_cursor, answered.body.data.next_cursor, 'the cursor is kept on an empty page');
  });

  it('a projection rebuild keeps the tenant event stream identical (ids, order, cursors, data)', async () => {
    const before = await call(tenant.key.api_key, 'GET', '/workspace/events?limit=1000');
    assert.ok(before.body.data.data.length > 10);
    const [result] = await api.app.get(ProjectionRunner).rebuild(WORKSPACE_PROJECTION);
    assert.ok(result, 'the workspace projection was rebuilt');
    const after = await call(tenant.key.api_key, 'GET', '/workspace/events?limit=1000');
    assert.deepEqual(after.body.data, before.body.data);
    const memo = await call(tenant.key.api_key, 'GET', `/workspace/companies/${companyId}/memo`);
    assert.equal(memo.headers.get('etag'), '"3"', 'the read models are rebuilt too');
  });

  it("another tenant's ids answer 404 on every route, like ids that never existed, and cost nothing", async () => {
    const before = (await call(other.key.api_key, 'GET', '/agents/status')).body;
    const attempts: Array<[string, string, unknown?]> = [
      ['GET', `/workspace/companies/${companyId}`],
      ['GET', `/workspace/companies/${companyId}/memo`],
      ['PATCH', `/workspace/companies/${companyId}/memo`, { body: 'x' }],
      ['GET', `/workspace/companies/${companyId}/memo/versions`],
      ['GET', `/workspace/companies/${companyId}/follow-ups`],
      ['PUT', `/workspace/companies/${companyId}/follow-ups/k`, { title: 't', due_at: '2026-12-01T00:00:00Z' }],
      ['PATCH', `/workspace/deals/${dealId}`, { stage: 'ic' }],
      ['POST', '/workspace/deals', { company_id: companyId, name: 'steal' }],
    ];
    for (const [method, path, body] of attempts) {
      const foreign = await call(other.key.api_key, method, path, body);
      const never = await call(
        other.key.api_key,
        method,
        path.replace(companyId, 'wco_000000000000000000000000').replace(dealId, 'deal_01JAAAAAAAAAAAAAAAAAAAAAAA'),
        body,
      );
      assert.equal(foreign.status, 404, `${method} ${path}`);
      assert.deepEqual(
        [foreign.body.code, foreign.body.message],
        [never.body.code, never.body.message],
        `${method} ${path}`,
      );
    }
    const after = (await call(other.key.api_key, 'GET', '/agents/status')).body;
    const balanceOf = (status: Json) => JSON.stringify(status).match(/"balance_usd":([\d.]+)/)?.[1];
    assert.ok(balanceOf(before));
    assert.equal(balanceOf(after), balanceOf(before), 'the 404s cost nothing');
    const listed = await call(other.key.api_key, 'GET', '/workspace/deals');
    assert.deepEqual(listed.body.data.data, []);
  });

  it('more keys for a tenant reach the same workspace; a key of one tenant never reaches another', async () => {
    const second = await commands.execute(new IssueTenantKeyCommand(tenant.tenant_id, 'ci'));
    const list = await call(second.api_key, 'GET', '/workspace/companies');
    assert.equal(list.status, 200);
    assert.ok(list.body.data.data.some((c: Json) => c.id === companyId));
  });
});
