import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FakeClock } from '#kernel';
import { APPROVAL_TTL_MS, ApprovalExpirySweeper } from '#platform';
import { startTestApi, type TestApi } from '../api/support/test-api.js';
import { type Body, type Call, domainAccount, expectStatus, listAll } from './support/domain-client.js';

describe('/v1/approvals (real HTTP, embedded stores, fake clock)', () => {
  let api: TestApi;
  const clock = new FakeClock('2026-03-01T10:00:00.000Z');
  let a: { accountId: string; keyIds: Record<string, string> } & Record<
    'admin' | 'admin2' | 'agent' | 'writer' | 'reader',
    Call
  >;
  let b: { accountId: string } & Record<'admin', Call>;
  let repo: Body;

  before(async () => {
    api = await startTestApi({ clock });
    a = await domainAccount(api.app, api.url, {
      admin: ['admin'],
      admin2: ['admin'],
      agent: ['write', 'agents:run'],
      writer: ['write'],
      reader: ['read'],
    });
    b = await domainAccount(api.app, api.url, { admin: ['admin'] });
    repo = expectStatus(await a.admin('POST', '/v1/repositories', { name: 'acme/web' }), 201);
  });
  after(async () => {
    await api?.close();
  });

  const request = async (body: Body = {}) =>
    expectStatus(
      await a.agent('POST', '/v1/approvals', {
        action: 'push_fix',
        resource: { type: 'pull_request', id: '42' },
        description: 'Push the lint fix',
        repository_id: repo.id,
        ...body,
      }),
      201,
      'request',
    );

  it('requests an approval (201, pending, expires 7 days later)', async () => {
    const approval = await request();
    assert.match(approval.id, /^apr_[0-9A-Z]{26}$/);
    assert.deepEqual(approval, {
      id: approval.id,
      status: 'pending',
      action: 'push_fix',
      resource: { type: 'pull_request', id: '42' },
      description: 'Push the lint fix',
      repository: { id: repo.id, name: 'acme/web' },
      run_id: null,
      requested_by: a.keyIds.agent,
      requested_at: clock.now().toISOString(),
      expires_at: new Date(clock.now().getTime() + APPROVAL_TTL_MS).toISOString(),
      decided_by: null,
      decided_at: null,
      comment: null,
    });
    assert.deepEqual(expectStatus(await a.reader('GET', `/v1/approvals/${approval.id}`), 200), approval);
  });

  it('approve (admin) → approved; deciding again either way → 409 APPROVAL_ALREADY_DECIDED', async () => {
    const approval = await request();
    clock.advance(60_000);
    const approved = expectStatus(
      await a.admin('POST', `/v1/approvals/${approval.id}/approve`, { comment: 'Go ahead' }),
      200,
    );
    assert.deepEqual(
      [approved.status, approved.decided_by, approved.decided_at, approved.comment],
      ['approved', a.keyIds.admin, clock.now().toISOString(), 'Go ahead'],
    );
    for (const action of ['approve', 'reject']) {
      const again = await a.admin2('POST', `/v1/approvals/${approval.id}/${action}`);
      assert.deepEqual(
        [again.status, again.body.code, again.body.approval_status],
        [409, 'APPROVAL_ALREADY_DECIDED', 'approved'],
        action,
      );
    }
  });

  it('reject → rejected; the requester cannot decide its own request (403); write is not enough to decide (403 admin)', async () => {
    const approval = await request();
    const self = await a.agent('POST', `/v1/approvals/${approval.id}/approve`);
    assert.deepEqual([self.status, self.body.code, self.body.required_scope], [403, 'INSUFFICIENT_SCOPE', 'admin']);
    const writer = await a.writer('POST', `/v1/approvals/${approval.id}/reject`);
    assert.deepEqual([writer.status, writer.body.required_scope], [403, 'admin']);
    const byAdmin = expectStatus(
      await a.admin('POST', '/v1/approvals', { action: 'deploy', resource: { type: 'deployment', id: 'production' } }),
      201,
    );
    const own = await a.admin('POST', `/v1/approvals/${byAdmin.id}/approve`);
    assert.deepEqual([own.status, own.body.code], [403, 'SELF_APPROVAL_FORBIDDEN']);
    assert.equal(byAdmin.repository, null);
    const rejected = expectStatus(
      await a.admin('POST', `/v1/approvals/${approval.id}/reject`, { comment: 'Not now' }),
      200,
    );
    assert.equal(rejected.status, 'rejected');
    expectStatus(await a.admin2('POST', `/v1/approvals/${byAdmin.id}/approve`), 200, 'another admin key may');
  });

  it('expires 7 days after the request (clock-driven): shown expired at once, recorded by the sweeper, cannot be decided (409)', async () => {
    const approval = await request();
    const sweeper = api.app.get(ApprovalExpirySweeper);
    clock.advance(APPROVAL_TTL_MS - 1);
    await sweeper.sweep();
    assert.equal(
      expectStatus(await a.reader('GET', `/v1/approvals/${approval.id}`), 200).status,
      'pending',
      'not due yet',
    );
    assert.ok((await listAll(a.reader, '/v1/approvals?status=pending')).some((x) => x.id === approval.id));
    clock.advance(1);
    assert.equal(
      expectStatus(await a.reader('GET', `/v1/approvals/${approval.id}`), 200).status,
      'expired',
      'due: shown expired before the sweep',
    );
    assert.ok(!(await listAll(a.reader, '/v1/approvals?status=pending')).some((x) => x.id === approval.id));
    const late = await a.admin('POST', `/v1/approvals/${approval.id}/approve`);
    assert.deepEqual([late.status, late.body.code], [409, 'APPROVAL_EXPIRED']);
    assert.ok(
      !(await listAll(a.reader, '/v1/approvals?status=expired')).some((x) => x.id === approval.id),
      'not recorded before the sweep',
    );
    assert.ok((await sweeper.sweep()) >= 1);
    assert.ok(
      (await listAll(a.reader, '/v1/approvals?status=expired')).some((x) => x.id === approval.id),
      'recorded',
    );
    assert.equal(await sweeper.sweep(), 0, 'once');
    assert.equal((await a.admin('POST', `/v1/approvals/${approval.id}/reject`)).body.code, 'APPROVAL_EXPIRED');
  });

  it('links a run (its repository by default); refuses a run of another repository, unknown references and bad bodies', async () => {
    const agent = expectStatus(await a.admin('POST', '/v1/agents', { name: 'Fixer', template: 'bug-fix' }), 201);
    const run = expectStatus(await a.admin('POST', `/v1/agents/${agent.id}/runs`, { repository_id: repo.id }), 201);
    const linked = expectStatus(
      await a.agent('POST', '/v1/approvals', {
        action: 'push_fix',
        resource: { type: 'branch', id: 'fix/login' },
        run_id: run.id,
      }),
      201,
    );
    assert.deepEqual([linked.run_id, linked.repository], [run.id, { id: repo.id, name: 'acme/web' }]);
    const other = expectStatus(await a.admin('POST', '/v1/repositories', { name: 'acme/other' }), 201);
    assert.equal(
      (
        await a.agent('POST', '/v1/approvals', {
          action: 'x',
          resource: { type: 'y', id: 'z' },
          run_id: run.id,
          repository_id: other.id,
        })
      ).status,
      400,
    );
    assert.equal(
      (
        await a.agent('POST', '/v1/approvals', {
          action: 'x',
          resource: { type: 'y', id: 'z' },
          run_id: 'run_01JZZZZZZZZZZZZZZZZZZZZZZZ',
        })
      ).body.code,
      'RUN_NOT_FOUND',
    );
    assert.equal(
      (
        await a.agent('POST', '/v1/approvals', {
          action: 'x',
          resource: { type: 'y', id: 'z' },
          repository_id: 'repo_01JZZZZZZZZZZZZZZZZZZZZZZZ',
        })
      ).body.code,
      'REPOSITORY_NOT_FOUND',
    );
    for (const body of [
      {},
      { action: 'Push Fix', resource: { type: 'y', id: 'z' } },
      { action: 'x', resource: { type: 'y' } },
      { action: 'x', resource: { type: 'y', id: 'z', extra: 1 } },
    ]) {
      assert.equal((await a.agent('POST', '/v1/approvals', body)).status, 400, JSON.stringify(body));
    }
    assert.deepEqual(
      [
        (await a.reader('POST', '/v1/approvals', { action: 'x', resource: { type: 'y', id: 'z' } })).body
          .required_scope,
      ],
      ['write'],
    );
  });

  it("lists newest first by status; another account's approvals are 404 and invisible", async () => {
    const c = await domainAccount(api.app, api.url, { requester: ['write'], approver: ['admin'] });
    const made: Body[] = [];
    for (let i = 0; i < 3; i++) {
      clock.advance(1000);
      made.push(
        expectStatus(
          await c.requester('POST', '/v1/approvals', {
            action: 'deploy',
            resource: { type: 'deployment', id: `d${i}` },
          }),
          201,
        ),
      );
    }
    expectStatus(await c.approver('POST', `/v1/approvals/${made[1]!.id}/approve`), 200);
    assert.deepEqual(
      (await listAll(c.approver, '/v1/approvals')).map((x) => x.id),
      made.map((x) => x.id).reverse(),
    );
    assert.deepEqual(
      (await listAll(c.approver, '/v1/approvals?status=pending')).map((x) => x.id),
      [made[2]!.id, made[0]!.id],
    );
    assert.deepEqual(
      (await listAll(c.approver, '/v1/approvals?status=approved')).map((x) => x.id),
      [made[1]!.id],
    );
    assert.equal((await c.approver('GET', '/v1/approvals?status=maybe')).status, 400);
    for (const [method, path] of [
      ['GET', `/v1/approvals/${made[0]!.id}`],
      ['POST', `/v1/approvals/${made[0]!.id}/approve`],
      ['POST', `/v1/approvals/${made[0]!.id}/reject`],
    ] as const) {
      const res = await b.admin(method, path);
      assert.deepEqual([res.status, res.body.code], [404, 'APPROVAL_NOT_FOUND'], `${method} ${path}`);
    }
    assert.deepEqual(await listAll(b.admin, '/v1/approvals'), []);
  });
});
