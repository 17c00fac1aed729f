// Over 400 lines on purpose: agents and runs over one started app and one account, the run
// lifecycle cases in order.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FakeClock } from '#kernel';
import { EVENT_STORE, type EventStore } from '#eventstore';
import { RunTimeoutSweeper, runStream } from '#platform';
import { startTestApi, type TestApi } from '../api/support/test-api.js';
import { createKey } from '../platform/support/platform-fixtures.js';
import {
  type Body,
  type Call,
  client,
  domainAccount,
  expectStatus,
  listAll,
  pullRequest,
} from './support/domain-client.js';

describe('/v1/agents and /v1/runs (real HTTP, embedded stores)', () => {
  let api: TestApi;
  const clock = new FakeClock('2026-03-01T10:00:00.000Z');
  let a: { accountId: string; keyIds: Record<string, string> } & Record<
    'admin' | 'configurer' | 'runner' | 'runner2' | 'reader' | 'manager',
    Call
  >;
  let b: { accountId: string } & Record<'admin', Call>;
  let repo: Body;
  let agent: Body;

  before(async () => {
    api = await startTestApi({ clock });
    a = await domainAccount(api.app, api.url, {
      admin: ['admin'],
      configurer: ['agents:configure'],
      runner: ['agents:run'],
      runner2: ['agents:run'],
      reader: ['read'],
      manager: ['repositories:manage'],
    });
    b = await domainAccount(api.app, api.url, { admin: ['admin'] });
    repo = expectStatus(await a.manager('POST', '/v1/repositories', { name: 'acme/web' }), 201);
    agent = expectStatus(
      await a.configurer('POST', '/v1/agents', {
        name: 'Reviewer',
        template: 'code-review',
        config: { severity: 'warning' },
      }),
      201,
    );
  });
  after(async () => {
    await api?.close();
  });

  const startRun = async (
    body: Body = { repository_id: repo.id, pull_request: pullRequest },
    agentId = agent.id as string,
  ) => expectStatus(await a.runner('POST', `/v1/agents/${agentId}/runs`, body), 201, 'start run');

  describe('agents', () => {
    it('lists the documented templates', async () => {
      const page = expectStatus(await a.reader('GET', '/v1/agent-templates'), 200);
      assert.deepEqual(
        page.data.map((t: Body) => t.id),
        ['code-review', 'security-audit', 'test-generation', 'dependency-update', 'documentation', 'bug-fix', 'custom'],
      );
      assert.equal(page.has_more, false);
      assert.ok(page.data.every((t: Body) => typeof t.name === 'string' && typeof t.description === 'string'));
    });

    it('creates (201), reads, lists and updates an agent', async () => {
      assert.match(agent.id, /^agt_[0-9A-Z]{26}$/);
      assert.deepEqual(agent, {
        id: agent.id,
        name: 'Reviewer',
        template: 'code-review',
        config: { severity: 'warning' },
        created_at: '2026-03-01T10:00:00.000Z',
        updated_at: '2026-03-01T10:00:00.000Z',
      });
      assert.deepEqual(expectStatus(await a.reader('GET', `/v1/agents/${agent.id}`), 200), agent);
      clock.advance(1000);
      const other = expectStatus(
        await a.configurer('POST', '/v1/agents', { name: 'Auditor', template: 'security-audit' }),
        201,
      );
      assert.deepEqual(other.config, {});
      const listed = await listAll(a.reader, '/v1/agents');
      assert.deepEqual(listed.map((x) => x.id).slice(0, 2), [other.id, agent.id]);
      assert.deepEqual(
        (await listAll(a.reader, '/v1/agents?template=security-audit')).map((x) => x.id),
        [other.id],
      );

      clock.advance(1000);
      const renamed = expectStatus(
        await a.configurer('PATCH', `/v1/agents/${other.id}`, { name: 'Security auditor', config: { deep: true } }),
        200,
      );
      assert.deepEqual(
        [renamed.name, renamed.config, renamed.template, renamed.updated_at],
        ['Security auditor', { deep: true }, 'security-audit', '2026-03-01T10:00:02.000Z'],
      );
      assert.equal((await a.configurer('PATCH', `/v1/agents/${other.id}`, {})).status, 400, 'nothing to change');
      assert.equal(
        (await a.configurer('PATCH', `/v1/agents/${other.id}`, { template: 'custom' })).status,
        400,
        'the template is fixed',
      );
    });

    it('refuses unknown templates and bad configs (400); scopes: agents:configure to change, read to read', async () => {
      assert.equal((await a.configurer('POST', '/v1/agents', { name: 'x', template: 'mind-reader' })).status, 400);
      assert.equal(
        (await a.configurer('POST', '/v1/agents', { name: 'x', template: 'custom', config: [1] })).status,
        400,
      );
      assert.equal(
        (
          await a.configurer('POST', '/v1/agents', {
            name: 'x',
            template: 'custom',
            config: { big: 'x'.repeat(17 * 1024) },
          })
        ).status,
        400,
      );
      for (const call of [a.runner, a.reader]) {
        const res = await call('POST', '/v1/agents', { name: 'x', template: 'custom' });
        assert.deepEqual([res.status, res.body.required_scope], [403, 'agents:configure']);
        assert.equal((await call('PATCH', `/v1/agents/${agent.id}`, { name: 'y' })).status, 403);
      }
      assert.equal((await a.runner('GET', '/v1/agents')).status, 403);
      assert.equal((await a.configurer('GET', `/v1/agents/${agent.id}`)).status, 403);
    });

    it("another account's agent is 404 (get, update, runs)", async () => {
      const theirs = expectStatus(await b.admin('POST', '/v1/agents', { name: 'Theirs', template: 'custom' }), 201);
      assert.equal((await a.admin('GET', `/v1/agents/${theirs.id}`)).body.code, 'AGENT_NOT_FOUND');
      assert.equal((await a.admin('PATCH', `/v1/agents/${theirs.id}`, { name: 'mine' })).status, 404);
      assert.equal(
        (await a.admin('POST', `/v1/agents/${theirs.id}/runs`, { repository_id: repo.id })).body.code,
        'AGENT_NOT_FOUND',
      );
      assert.equal((await a.admin('GET', `/v1/agents/${theirs.id}/runs`)).status, 404);
      assert.ok(!(await listAll(a.reader, '/v1/agents')).some((x) => x.id === theirs.id));
    });
  });

  describe('runs', () => {
    it('starts a run (201, queued) with the agent, repository, pull request and config copied in', async () => {
      const run = await startRun({ repository_id: repo.id, pull_request: pullRequest, ref: 'main' });
      assert.match(run.id, /^run_[0-9A-Z]{26}$/);
      assert.deepEqual(run, {
        id: run.id,
        status: 'queued',
        agent: { id: agent.id, name: 'Reviewer', template: 'code-review' },
        repository: { id: repo.id, name: 'acme/web' },
        pull_request: pullRequest,
        ref: 'main',
        config: { severity: 'warning' },
        queued_at: clock.now().toISOString(),
        started_at: null,
        finished_at: null,
        duration_ms: null,
        issues_found: null,
        results: null,
        summary: null,
        error: null,
        claimed_by: null,
        cancel_reason: null,
      });
      expectStatus(await a.admin('POST', `/v1/runs/${run.id}/cancel`), 200);
    });

    it('refuses runs against unknown (404), foreign (404) or disconnected (409) repositories, and bad pull requests (400)', async () => {
      assert.equal(
        (await a.runner('POST', `/v1/agents/${agent.id}/runs`, { repository_id: 'repo_01JZZZZZZZZZZZZZZZZZZZZZZZ' }))
          .body.code,
        'REPOSITORY_NOT_FOUND',
      );
      const theirs = expectStatus(await b.admin('POST', '/v1/repositories', { name: 'beta/web' }), 201);
      assert.equal((await a.runner('POST', `/v1/agents/${agent.id}/runs`, { repository_id: theirs.id })).status, 404);
      const old = expectStatus(await a.manager('POST', '/v1/repositories', { name: 'acme/retired' }), 201);
      expectStatus(await a.manager('DELETE', `/v1/repositories/${old.id}`), 204);
      const res = await a.runner('POST', `/v1/agents/${agent.id}/runs`, { repository_id: old.id });
      assert.deepEqual([res.status, res.body.code], [409, 'REPOSITORY_DISCONNECTED']);
      for (const pr of [
        { number: 0, title: 't', url: 'https://x.test/1' },
        { number: 1, title: 't', url: 'not a url' },
        { number: 1, title: 't' },
        { ...pullRequest, extra: true },
      ]) {
        assert.equal(
          (await a.runner('POST', `/v1/agents/${agent.id}/runs`, { repository_id: repo.id, pull_request: pr })).status,
          400,
          JSON.stringify(pr),
        );
      }
      assert.deepEqual(
        [(await a.reader('POST', `/v1/agents/${agent.id}/runs`, { repository_id: repo.id })).body.required_scope],
        ['agents:run'],
      );
    });

    it('queued → running → success: claim (agent.started), complete with findings, duration from the injected clock', async () => {
      const run = await startRun();
      clock.advance(5000);
      const claimed = expectStatus(await a.runner('POST', `/v1/runs/${run.id}/claim`), 200, 'claim');
      assert.deepEqual(
        [claimed.status, claimed.started_at, claimed.claimed_by],
        ['running', clock.now().toISOString(), a.keyIds.runner],
      );
      clock.advance(62_250);
      const findings = [
        { level: 'error', file: 'src/login.ts', line: 12, message: 'Open redirect', rule: 'security/open-redirect' },
        { level: 'warning', file: 'src/login.ts', line: 30, message: 'Unused variable', rule: 'no-unused-vars' },
        { level: 'warning', file: 'src/app.ts', line: 3, message: 'Prefer const', rule: 'prefer-const' },
        { level: 'info', message: 'Consider adding tests' },
      ];
      const done = expectStatus(
        await a.runner('POST', `/v1/runs/${run.id}/complete`, { findings, summary: 'Reviewed 2 files' }),
        200,
        'complete',
      );
      assert.equal(done.status, 'success');
      assert.equal(done.duration_ms, 62_250);
      assert.equal(done.issues_found, 4);
      assert.deepEqual(done.results, { errors: 1, warnings: 2, info: 1 });
      assert.equal(done.summary, 'Reviewed 2 files');
      assert.equal(done.finished_at, clock.now().toISOString());

      const all = expectStatus(await a.reader('GET', `/v1/runs/${run.id}/findings`), 200);
      assert.deepEqual(all.data, [
        ...findings.slice(0, 3),
        { level: 'info', file: null, line: null, message: 'Consider adding tests', rule: null },
      ]);
      const warnings = expectStatus(await a.reader('GET', `/v1/runs/${run.id}/findings?level=warning&limit=1`), 200);
      assert.deepEqual([warnings.data.length, warnings.data[0].line, warnings.has_more], [1, 30, true]);
      assert.deepEqual(expectStatus(await a.reader('GET', `/v1/runs/${run.id}`), 200), done);
    });

    it('queued → running → failed (agent.failed), with the error', async () => {
      const run = await startRun({ repository_id: repo.id });
      expectStatus(await a.runner('POST', `/v1/runs/${run.id}/claim`), 200);
      clock.advance(1500);
      const failed = expectStatus(
        await a.runner('POST', `/v1/runs/${run.id}/fail`, {
          error: { code: 'clone_failed', message: 'git clone exited 128' },
        }),
        200,
      );
      assert.deepEqual(
        [failed.status, failed.duration_ms, failed.error],
        ['failed', 1500, { code: 'clone_failed', message: 'git clone exited 128' }],
      );
      assert.equal((await a.runner('POST', `/v1/runs/${run.id}/fail`, { error: {} })).status, 400);
    });

    it('the runner lease: a run still running an hour after its claim fails with code timeout (agent.failed), the late report gets 409', async () => {
      const sweeper = api.app.get(RunTimeoutSweeper);
      const stuck = await startRun({ repository_id: repo.id });
      expectStatus(await a.runner('POST', `/v1/runs/${stuck.id}/claim`), 200);
      clock.advance(30 * 60_000);
      const fresh = await startRun({ repository_id: repo.id });
      expectStatus(await a.runner2('POST', `/v1/runs/${fresh.id}/claim`), 200);
      const queuedOnly = await startRun({ repository_id: repo.id });

      clock.advance(30 * 60_000 - 1);
      assert.equal(await sweeper.sweep(), 0, 'one ms before the lease runs out');
      clock.advance(1);
      assert.equal(await sweeper.sweep(), 1);
      const failed = expectStatus(await a.reader('GET', `/v1/runs/${stuck.id}`), 200);
      assert.deepEqual(
        [failed.status, failed.duration_ms, failed.finished_at, failed.error],
        [
          'failed',
          3_600_000,
          clock.now().toISOString(),
          { code: 'timeout', message: 'The runner reported no result within 60 minutes of claiming the run.' },
        ],
      );
      assert.equal(expectStatus(await a.reader('GET', `/v1/runs/${fresh.id}`), 200).status, 'running');
      assert.equal(
        expectStatus(await a.reader('GET', `/v1/runs/${queuedOnly.id}`), 200).status,
        'queued',
        'a queued run has no lease',
      );
      const late = await a.runner('POST', `/v1/runs/${stuck.id}/complete`, {});
      assert.deepEqual([late.status, late.body.code, late.body.run_status], [409, 'INVALID_RUN_TRANSITION', 'failed']);
      const events = await listAll(a.reader, '/v1/events');
      const agentFailed = events.filter((e) => e.type === 'agent.failed' && e.data.run.id === stuck.id);
      assert.equal(agentFailed.length, 1);
      assert.deepEqual(agentFailed[0]!.data.run, { id: stuck.id, status: 'failed', duration_ms: 3_600_000 });
      assert.deepEqual(agentFailed[0]!.data.error, {
        code: 'timeout',
        message: 'The runner reported no result within 60 minutes of claiming the run.',
      });

      assert.equal(await sweeper.sweep(), 0, 'sweeping again changes nothing');
      expectStatus(await a.runner2('POST', `/v1/runs/${fresh.id}/complete`, {}), 200);
      expectStatus(await a.runner('POST', `/v1/runs/${queuedOnly.id}/cancel`), 200);
    });

    it('illegal transitions → 409 INVALID_RUN_TRANSITION with run_status; only the claimer reports', async () => {
      const run = await startRun();
      const early = await a.runner('POST', `/v1/runs/${run.id}/complete`, {});
      assert.deepEqual(
        [early.status, early.body.code, early.body.run_status],
        [409, 'INVALID_RUN_TRANSITION', 'queued'],
      );
      assert.equal(
        (await a.runner('POST', `/v1/runs/${run.id}/fail`, { error: { message: 'x' } })).body.run_status,
        'queued',
      );
      expectStatus(await a.runner('POST', `/v1/runs/${run.id}/claim`), 200);
      const twice = await a.runner2('POST', `/v1/runs/${run.id}/claim`);
      assert.deepEqual(
        [twice.status, twice.body.code, twice.body.run_status],
        [409, 'INVALID_RUN_TRANSITION', 'running'],
      );
      const stranger = await a.runner2('POST', `/v1/runs/${run.id}/complete`, {});
      assert.deepEqual([stranger.status, stranger.body.code], [409, 'RUN_CLAIMED_BY_ANOTHER_RUNNER']);
      expectStatus(await a.runner('POST', `/v1/runs/${run.id}/complete`, {}), 200);
      for (const [path, body] of [
        ['complete', {}],
        ['fail', { error: { message: 'x' } }],
        ['cancel', undefined],
        ['claim', undefined],
      ] as const) {
        const res = await a.runner('POST', `/v1/runs/${run.id}/${path}`, body);
        assert.deepEqual(
          [res.status, res.body.code, res.body.run_status],
          [409, 'INVALID_RUN_TRANSITION', 'success'],
          path,
        );
      }
    });

    it('cancels queued and running runs (agents:run); a runner whose run was cancelled gets 409', async () => {
      const queued = await startRun();
      const cancelled = expectStatus(
        await a.runner2('POST', `/v1/runs/${queued.id}/cancel`, { reason: 'superseded' }),
        200,
      );
      assert.deepEqual(
        [cancelled.status, cancelled.cancel_reason, cancelled.finished_at],
        ['cancelled', 'superseded', clock.now().toISOString()],
      );
      assert.equal((await a.runner('POST', `/v1/runs/${queued.id}/claim`)).body.run_status, 'cancelled');
      const running = await startRun();
      expectStatus(await a.runner('POST', `/v1/runs/${running.id}/claim`), 200);
      expectStatus(await a.admin('POST', `/v1/runs/${running.id}/cancel`), 200);
      assert.equal((await a.runner('POST', `/v1/runs/${running.id}/complete`, {})).body.run_status, 'cancelled');
      assert.equal((await a.reader('POST', `/v1/runs/${running.id}/cancel`)).status, 403);
    });

    it('20 concurrent claims of one run: exactly one wins, the run stream holds one RunClaimed', async () => {
      const keys = await Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          createKey(api.app, a.accountId, { scopes: ['agents:run'], name: `runner ${i}` }),
        ),
      );
      const runners = keys.map((k) => client(api.url, k.key));
      const run = await startRun();
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => runners[i % runners.length]!('POST', `/v1/runs/${run.id}/claim`)),
      );
      const statuses = answers.map((r) => r.status);
      assert.equal(statuses.filter((s) => s === 200).length, 1, statuses.join(','));
      assert.equal(statuses.filter((s) => s === 409).length, 19, statuses.join(','));
      const winner = answers.find((r) => r.status === 200)!;
      const events: string[] = [];
      for await (const e of api.app.get<EventStore>(EVENT_STORE).readStream(runStream(run.id))) events.push(e.type);
      assert.deepEqual(events, ['RunQueued', 'RunClaimed']);
      assert.equal(expectStatus(await a.reader('GET', `/v1/runs/${run.id}`), 200).claimed_by, winner.body.claimed_by);
    });

    it('POST /v1/runs/claim: 20 concurrent runners, 3 queued runs → 3 claims of 3 distinct runs, 17 × 204; oldest first; filters', async () => {
      const c = await domainAccount(api.app, api.url, { admin: ['admin'] });
      const cRepo = expectStatus(await c.admin('POST', '/v1/repositories', { name: 'gamma/web' }), 201);
      const cAgent = expectStatus(
        await c.admin('POST', '/v1/agents', { name: 'Docs', template: 'documentation' }),
        201,
      );
      assert.equal((await c.admin('POST', '/v1/runs/claim')).status, 204, 'nothing queued');
      const queued: string[] = [];
      for (let i = 0; i < 3; i++) {
        clock.advance(10);
        queued.push(
          expectStatus(await c.admin('POST', `/v1/agents/${cAgent.id}/runs`, { repository_id: cRepo.id }), 201).id,
        );
      }
      const answers = await Promise.all(Array.from({ length: 20 }, () => c.admin('POST', '/v1/runs/claim', {})));
      const won = answers.filter((r) => r.status === 200);
      assert.equal(won.length, 3, answers.map((r) => r.status).join(','));
      assert.equal(answers.filter((r) => r.status === 204).length, 17);
      assert.deepEqual(won.map((r) => r.body.id).sort(), [...queued].sort());
      assert.ok(won.every((r) => r.body.status === 'running' && r.body.config));

      clock.advance(10);
      const older = expectStatus(
        await c.admin('POST', `/v1/agents/${cAgent.id}/runs`, { repository_id: cRepo.id }),
        201,
      );
      clock.advance(10);
      const newer = expectStatus(
        await c.admin('POST', `/v1/agents/${cAgent.id}/runs`, { repository_id: cRepo.id }),
        201,
      );
      assert.equal(
        (await c.admin('POST', '/v1/runs/claim', { template: 'code-review' })).status,
        204,
        'no run of that template',
      );
      assert.equal(
        (await c.admin('POST', '/v1/runs/claim', { agent_id: 'agt_01JZZZZZZZZZZZZZZZZZZZZZZZ' })).status,
        204,
      );
      assert.equal(
        expectStatus(
          await c.admin('POST', '/v1/runs/claim', { template: 'documentation', repository_id: cRepo.id }),
          200,
        ).id,
        older.id,
        'oldest first',
      );
      assert.equal(expectStatus(await c.admin('POST', '/v1/runs/claim'), 200).id, newer.id);
      assert.equal((await c.admin('POST', '/v1/runs/claim', { unknown: 1 })).status, 400);
    });

    it("lists runs newest first with filters; another account's runs are 404 and invisible", async () => {
      const d = await domainAccount(api.app, api.url, { admin: ['admin'] });
      const dRepo = expectStatus(await d.admin('POST', '/v1/repositories', { name: 'delta/web' }), 201);
      const dRepo2 = expectStatus(await d.admin('POST', '/v1/repositories', { name: 'delta/api' }), 201);
      const dAgent = expectStatus(
        await d.admin('POST', '/v1/agents', { name: 'Tests', template: 'test-generation' }),
        201,
      );
      const dAgent2 = expectStatus(
        await d.admin('POST', '/v1/agents', { name: 'Deps', template: 'dependency-update' }),
        201,
      );
      const made: Body[] = [];
      for (const [agentId, repoId] of [
        [dAgent.id, dRepo.id],
        [dAgent2.id, dRepo.id],
        [dAgent.id, dRepo2.id],
      ]) {
        clock.advance(10);
        made.push(expectStatus(await d.admin('POST', `/v1/agents/${agentId}/runs`, { repository_id: repoId }), 201));
      }
      expectStatus(await d.admin('POST', `/v1/runs/${made[0]!.id}/claim`), 200);
      const ids = async (path: string) => (await listAll(d.admin, path)).map((r) => r.id);
      assert.deepEqual(await ids('/v1/runs'), made.map((r) => r.id).reverse());
      assert.deepEqual(await ids(`/v1/runs?agent_id=${dAgent.id}`), [made[2]!.id, made[0]!.id]);
      assert.deepEqual(await ids(`/v1/agents/${dAgent.id}/runs`), [made[2]!.id, made[0]!.id]);
      assert.deepEqual(await ids(`/v1/runs?repository_id=${dRepo.id}`), [made[1]!.id, made[0]!.id]);
      assert.deepEqual(await ids('/v1/runs?status=running'), [made[0]!.id]);
      assert.deepEqual(await ids(`/v1/agents/${dAgent.id}/runs?status=queued`), [made[2]!.id]);
      assert.equal((await d.admin('GET', '/v1/runs?status=paused')).status, 400);

      for (const [method, path] of [
        ['GET', `/v1/runs/${made[0]!.id}`],
        ['GET', `/v1/runs/${made[0]!.id}/findings`],
        ['POST', `/v1/runs/${made[1]!.id}/claim`],
        ['POST', `/v1/runs/${made[1]!.id}/cancel`],
        ['POST', `/v1/runs/${made[0]!.id}/complete`],
      ] as const) {
        const res = await a.admin(method, path, method === 'POST' && path.endsWith('complete') ? {} : undefined);
        assert.deepEqual([res.status, res.body.code], [404, 'RUN_NOT_FOUND'], `${method} ${path}`);
      }
      assert.ok(!(await listAll(a.reader, '/v1/runs')).some((r) => made.some((m) => m.id === r.id)));
    });
  });
});
