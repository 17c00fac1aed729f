import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Decider, FakeClock, fold } from '#kernel';
import type { Doc } from '#documents';
import { EVENT_STORE, type EventStore } from '#eventstore';
import {
  agentDecider,
  agentStream,
  approvalDecider,
  approvalStream,
  PLATFORM_DOMAIN_PROJECTIONS,
  PLATFORM_EVENTS_COLLECTION,
  PLATFORM_EVENTS_PROJECTION,
  type PlatformEventDoc,
  repositoryDecider,
  repositoryStream,
  runDecider,
  runStream,
  securityDecider,
  securityStream,
  toPlatformEvent,
  APPROVAL_TTL_MS,
  envelopeOf,
} from '#platform';
import { ProjectionRunner, type ProjectionDefinition } from '#projections';
import { startTestApi, type TestApi } from '../api/support/test-api.js';
import { MemoryProjection } from '#projections/testing';
import { type Body, domainAccount, expectStatus, listAll, pullRequest, vuln } from './support/domain-client.js';

type Stored = [stream: string, event: { type: string; data: unknown }];

/** Runs commands through a decider, as the handlers do, collecting the events in order. */
function drive<C, E extends { type: string; data: unknown }, S>(
  decider: Decider<C, E, S>,
  stream: string,
  commands: C[],
  into: Stored[],
): void {
  const events = into.filter(([s]) => s === stream).map(([, e]) => e as E);
  for (const command of commands) {
    const decided = decider.decide(command, fold(decider, events));
    events.push(...decided);
    into.push(...decided.map((e): Stored => [stream, e]));
  }
}

/** Every stored event type of the platform domain, produced by its decider. */
function domainHistory(): Stored[] {
  const out: Stored[] = [];
  const t = (s: number) => new Date(Date.parse('2026-03-01T10:00:00.000Z') + s * 1000);
  const repository = { id: 'repo_1', name: 'acme/web' };
  const agent = { id: 'agt_1', name: 'Reviewer', template: 'code-review' as const };
  drive(
    agentDecider,
    agentStream('agt_1'),
    [
      {
        type: 'CreateAgent',
        agentId: 'agt_1',
        accountId: 'acct_1',
        name: 'Reviewer',
        template: 'code-review',
        config: {},
        by: 'key_1',
        now: t(0),
      },
      { type: 'UpdateAgent', agentId: 'agt_1', accountId: 'acct_1', name: 'Reviewer 2', by: 'key_1', now: t(1) },
    ],
    out,
  );
  const repoStream = repositoryStream('acct_1', 'acme/web');
  drive(
    repositoryDecider,
    repoStream,
    [
      {
        type: 'ConnectRepository',
        repositoryId: 'repo_1',
        accountId: 'acct_1',
        name: 'acme/web',
        provider: 'github',
        url: 'https://github.com/acme/web',
        by: 'key_1',
        now: t(2),
      },
      {
        type: 'ReportAnalysis',
        repositoryId: 'repo_1',
        accountId: 'acct_1',
        analysis: { id: 'ana_1', summary: 's', commit_sha: null, languages: [], metrics: {} },
        by: 'key_1',
        now: t(3),
      },
    ],
    out,
  );
  const queue = (runId: string, s: number) => ({
    type: 'QueueRun' as const,
    runId,
    accountId: 'acct_1',
    agent,
    config: {},
    repository,
    pullRequest,
    ref: null,
    by: 'key_1',
    now: t(s),
  });
  const findings = [
    { level: 'error' as const, file: 'a.ts', line: 1, message: 'm', rule: null },
    { level: 'info' as const, file: null, line: null, message: 'n', rule: 'r' },
  ];
  drive(
    runDecider,
    runStream('run_1'),
    [
      queue('run_1', 4),
      { type: 'ClaimRun', runId: 'run_1', accountId: 'acct_1', by: 'key_r', now: t(5) },
      { type: 'CompleteRun', runId: 'run_1', accountId: 'acct_1', by: 'key_r', findings, summary: null, now: t(6) },
    ],
    out,
  );
  drive(
    runDecider,
    runStream('run_2'),
    [
      queue('run_2', 7),
      { type: 'ClaimRun', runId: 'run_2', accountId: 'acct_1', by: 'key_r', now: t(8) },
      {
        type: 'FailRun',
        runId: 'run_2',
        accountId: 'acct_1',
        by: 'key_r',
        error: { code: null, message: 'boom' },
        now: t(9),
      },
    ],
    out,
  );
  drive(
    runDecider,
    runStream('run_3'),
    [
      queue('run_3', 10),
      { type: 'CancelRun', runId: 'run_3', accountId: 'acct_1', by: 'key_1', reason: null, now: t(11) },
    ],
    out,
  );
  const scan = (scanId: string, s: number, vulnerabilities: ReturnType<typeof vuln>[]) => ({
    type: 'ReportScan' as const,
    scanId,
    accountId: 'acct_1',
    repository,
    scanner: null,
    vulnerabilities: vulnerabilities as never,
    by: 'key_s',
    now: t(s),
  });
  drive(
    securityDecider,
    securityStream('repo_1'),
    [
      scan('scan_1', 12, [vuln('GHSA-1'), vuln('GHSA-2', 'minimist')]),
      scan('scan_2', 13, [{ ...vuln('GHSA-2', 'minimist'), affected_files: ['yarn.lock'] }]),
    ],
    out,
  );
  const request = (approvalId: string, s: number) => ({
    type: 'RequestApproval' as const,
    approvalId,
    accountId: 'acct_1',
    action: 'push_fix',
    resource: { type: 'branch', id: 'fix' },
    description: null,
    repository,
    runId: null,
    by: 'key_a',
    now: t(s),
  });
  drive(
    approvalDecider,
    approvalStream('apr_1'),
    [
      request('apr_1', 14),
      {
        type: 'DecideApproval',
        approvalId: 'apr_1',
        accountId: 'acct_1',
        decision: 'approve',
        comment: null,
        by: 'key_b',
        now: t(15),
      },
    ],
    out,
  );
  drive(
    approvalDecider,
    approvalStream('apr_2'),
    [
      request('apr_2', 16),
      {
        type: 'DecideApproval',
        approvalId: 'apr_2',
        accountId: 'acct_1',
        decision: 'reject',
        comment: 'no',
        by: 'key_b',
        now: t(17),
      },
    ],
    out,
  );
  drive(
    approvalDecider,
    approvalStream('apr_3'),
    [
      request('apr_3', 18),
      { type: 'ExpireApproval', approvalId: 'apr_3', now: new Date(t(18).getTime() + APPROVAL_TTL_MS) },
    ],
    out,
  );
  drive(
    repositoryDecider,
    repoStream,
    [{ type: 'DisconnectRepository', repositoryId: 'repo_1', accountId: 'acct_1', by: 'key_1', now: t(19) }],
    out,
  );
  return out;
}

/** Applying each event a second time right after the first leaves the documents unchanged. */
async function assertIdempotent(projection: ProjectionDefinition, history: Stored[]): Promise<string[]> {
  const h = new MemoryProjection(projection);
  const applied: string[] = [];
  for (const [stream, event] of history) {
    const recorded = h.record(stream, event);
    if (!projection.eventTypes.includes(event.type)) continue;
    await h.apply(recorded);
    const once = h.snapshot();
    await h.apply(recorded);
    assert.deepEqual(h.snapshot(), once, `${projection.name}: ${event.type} applied twice`);
    applied.push(event.type);
  }
  return applied;
}

describe('platform-domain projections', () => {
  it('the history covers every stored event type of the domain', () => {
    const produced = new Set(domainHistory().map(([, e]) => e.type));
    const handled = new Set(PLATFORM_DOMAIN_PROJECTIONS.flatMap((p) => p.eventTypes));
    for (const type of handled) assert.ok(produced.has(type), `no ${type} in the history`);
  });

  for (const projection of PLATFORM_DOMAIN_PROJECTIONS) {
    it(`${projection.name}: each event applied twice changes nothing`, async () => {
      const applied = await assertIdempotent(projection, domainHistory());
      assert.deepEqual(
        [...new Set(applied)].sort(),
        [...new Set(projection.eventTypes)].sort(),
        'every handled type was applied',
      );
    });
  }

  it('platform-events: one document per published event, keyed by its derived evt_ id', async () => {
    const h = new MemoryProjection(PLATFORM_DOMAIN_PROJECTIONS.find((p) => p.name === PLATFORM_EVENTS_PROJECTION)!);
    const history = domainHistory();
    for (const [stream, event] of history) await h.apply(h.record(stream, event));
    const docs = Object.values(h.snapshot()[PLATFORM_EVENTS_COLLECTION] ?? {}) as PlatformEventDoc[];
    const published = history.filter(([, e]) => toPlatformEvent({ id: 'x', ...e }) !== null).length;
    assert.equal(docs.length, published);
    assert.ok(docs.every((d) => /^evt_[0-9A-Z]{26}$/.test(d.id) && d.account_id === 'acct_1'));
  });

  describe('rebuild equals incremental (the running app, embedded stores)', () => {
    let api: TestApi;
    const clock = new FakeClock('2026-03-01T10:00:00.000Z');
    before(async () => {
      api = await startTestApi({ clock });
    });
    after(async () => {
      await api?.close();
    });

    const snapshot = async (): Promise<Record<string, Doc[]>> => {
      const runner = api.app.get(ProjectionRunner);
      const out: Record<string, Doc[]> = {};
      for (const p of PLATFORM_DOMAIN_PROJECTIONS) {
        for (const c of p.collections)
          out[`${p.name}/${c.name}`] = (
            await runner.store.collection(p.name, c.name).find({}, { sort: [['id', 1]], limit: 1000 })
          ).items;
      }
      return out;
    };

    it('rebuilding every platform-domain projection from position 0 gives the same documents, the same evt_ ids included', async () => {
      const a = await domainAccount(api.app, api.url, { admin: ['admin'], admin2: ['admin'] });
      const repo: Body = expectStatus(await a.admin('POST', '/v1/repositories', { name: 'acme/web' }), 201);
      clock.advance(1000);
      expectStatus(await a.admin('POST', `/v1/repositories/${repo.id}/analyses`, { summary: 'ok' }), 201);
      const agent = expectStatus(await a.admin('POST', '/v1/agents', { name: 'R', template: 'code-review' }), 201);
      for (let i = 0; i < 3; i++) {
        clock.advance(1000);
        const run = expectStatus(
          await a.admin('POST', `/v1/agents/${agent.id}/runs`, { repository_id: repo.id, pull_request: pullRequest }),
          201,
        );
        expectStatus(await a.admin('POST', `/v1/runs/${run.id}/claim`), 200);
        clock.advance(1000);
        if (i === 1) expectStatus(await a.admin('POST', `/v1/runs/${run.id}/fail`, { error: { message: 'x' } }), 200);
        else
          expectStatus(
            await a.admin('POST', `/v1/runs/${run.id}/complete`, {
              findings: [{ level: 'warning', message: `w${i}` }],
            }),
            200,
          );
      }
      expectStatus(
        await a.admin('POST', `/v1/repositories/${repo.id}/security-scans`, {
          vulnerabilities: [vuln('GHSA-1'), vuln('GHSA-2', 'x')],
        }),
        201,
      );
      clock.advance(1000);
      expectStatus(
        await a.admin('POST', `/v1/repositories/${repo.id}/security-scans`, { vulnerabilities: [vuln('GHSA-2', 'x')] }),
        201,
      );
      const apr = expectStatus(
        await a.admin('POST', '/v1/approvals', {
          action: 'push_fix',
          resource: { type: 'branch', id: 'b' },
          repository_id: repo.id,
        }),
        201,
      );
      expectStatus(await a.admin2('POST', `/v1/approvals/${apr.id}/approve`), 200);
      expectStatus(await a.admin('DELETE', `/v1/repositories/${repo.id}`), 204);

      const incremental = await snapshot();
      const eventIds = incremental[`${PLATFORM_EVENTS_PROJECTION}/${PLATFORM_EVENTS_COLLECTION}`]!.map((d) => d.id);
      // connected, analyzed, 3 × started, 2 × (completed + issues_found), failed, 2 alerts, resolved, 2 scans completed, requested, approved, disconnected
      assert.equal(eventIds.length, 18);
      const served = (await listAll(a.admin, '/v1/events')).map((e) => e.id).sort();
      assert.deepEqual(served, [...eventIds].sort());

      const results = await api.app.get(ProjectionRunner).rebuild();
      for (const p of PLATFORM_DOMAIN_PROJECTIONS)
        assert.ok(results.find((r) => r.name === p.name)!.generation >= 2, p.name);
      const rebuilt = await snapshot();
      assert.deepEqual(rebuilt, incremental);
      assert.deepEqual(
        (await listAll(a.admin, '/v1/events')).map((e) => e.id).sort(),
        served,
        'the API serves the same evt_ ids after the rebuild',
      );

      // A consumer applying toPlatformEvent to the stored events (the webhook engine) gets exactly the read model's envelopes.
      const fromStore: Record<string, unknown> = {};
      for await (const e of api.app.get<EventStore>(EVENT_STORE).readAll()) {
        const p = toPlatformEvent(e);
        if (p) fromStore[p.envelope.id] = p.envelope;
      }
      const fromModel = Object.fromEntries(
        (rebuilt[`${PLATFORM_EVENTS_PROJECTION}/${PLATFORM_EVENTS_COLLECTION}`] as PlatformEventDoc[]).map((d) => [
          d.id,
          envelopeOf(d),
        ]),
      );
      assert.deepEqual(fromStore, fromModel);
    });
  });
});
