import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FakeClock } from '#kernel';
import {
  PLATFORM_EVENT_DATA_SCHEMAS,
  PLATFORM_EVENT_TYPES,
  type PlatformEventType,
  platformEventSchema,
} from '#platform';
import { startTestApi, type TestApi } from '../api/support/test-api.js';
import {
  type Body,
  type Call,
  domainAccount,
  expectStatus,
  listAll,
  pullRequest,
  vuln,
} from './support/domain-client.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const keys = (o: unknown) => Object.keys(o as object).sort();

describe('platform events: the 13 types in the documented envelope, /v1/events', () => {
  let api: TestApi;
  const clock = new FakeClock('2026-03-01T10:00:00.000Z');
  let a: { accountId: string; keyIds: Record<string, string> } & Record<'admin' | 'admin2' | 'runner' | 'reader', Call>;
  let b: { accountId: string } & Record<'admin', Call>;
  let repo: Body;
  let agent: Body;
  let completedRun: Body;
  let events: Body[];
  const at: Partial<Record<PlatformEventType, string>> = {};
  const tick = (ms = 1000) => clock.advance(ms).toISOString();

  before(async () => {
    api = await startTestApi({ clock });
    a = await domainAccount(api.app, api.url, {
      admin: ['admin'],
      admin2: ['admin'],
      runner: ['agents:run'],
      reader: ['read'],
    });
    b = await domainAccount(api.app, api.url, { admin: ['admin'] });

    at['repository.connected'] = tick();
    repo = expectStatus(await a.admin('POST', '/v1/repositories', { name: 'acme/web' }), 201);
    at['repository.analyzed'] = tick();
    expectStatus(
      await a.admin('POST', `/v1/repositories/${repo.id}/analyses`, {
        summary: 'TypeScript monorepo',
        languages: ['TypeScript'],
      }),
      201,
    );
    agent = expectStatus(await a.admin('POST', '/v1/agents', { name: 'Reviewer', template: 'code-review' }), 201);

    const run = expectStatus(
      await a.runner('POST', `/v1/agents/${agent.id}/runs`, { repository_id: repo.id, pull_request: pullRequest }),
      201,
    );
    at['agent.started'] = tick();
    expectStatus(await a.runner('POST', `/v1/runs/${run.id}/claim`), 200);
    at['agent.completed'] = tick(4321);
    at['agent.issues_found'] = at['agent.completed'];
    completedRun = expectStatus(
      await a.runner('POST', `/v1/runs/${run.id}/complete`, {
        findings: [
          { level: 'error', file: 'src/a.ts', line: 1, message: 'e1', rule: 'r1' },
          { level: 'error', file: 'src/a.ts', line: 2, message: 'e2', rule: 'r1' },
          { level: 'warning', file: 'src/b.ts', line: 3, message: 'w1', rule: 'r2' },
          { level: 'info', file: null, line: null, message: 'i1', rule: null },
        ],
      }),
      200,
    );
    const failing = expectStatus(
      await a.runner('POST', `/v1/agents/${agent.id}/runs`, { repository_id: repo.id }),
      201,
    );
    tick();
    expectStatus(await a.runner('POST', `/v1/runs/${failing.id}/claim`), 200);
    at['agent.failed'] = tick(250);
    expectStatus(
      await a.runner('POST', `/v1/runs/${failing.id}/fail`, {
        error: { code: 'timeout', message: 'No answer in 30 min' },
      }),
      200,
    );

    at['security.alert'] = tick();
    expectStatus(
      await a.admin('POST', `/v1/repositories/${repo.id}/security-scans`, {
        scanner: 'npm-audit',
        vulnerabilities: [
          {
            vulnerability: {
              id: 'GHSA-29mw-wpgm-hmr9',
              severity: 'high',
              package: 'lodash',
              version: '4.17.15',
              fixed_in: '4.17.21',
            },
            affected_files: ['package-lock.json', 'apps/web/package-lock.json'],
            recommendation: 'Upgrade lodash to 4.17.21 or later',
          },
          vuln('GHSA-other', 'minimist', 'low'),
        ],
      }),
      201,
    );
    at['security.resolved'] = tick();
    at['security.scan_completed'] = at['security.resolved'];
    expectStatus(
      await a.admin('POST', `/v1/repositories/${repo.id}/security-scans`, {
        vulnerabilities: [vuln('GHSA-other', 'minimist', 'low')],
      }),
      201,
    );

    at['approval.requested'] = tick();
    const toApprove = expectStatus(
      await a.admin('POST', '/v1/approvals', {
        action: 'push_fix',
        resource: { type: 'pull_request', id: '42' },
        repository_id: repo.id,
      }),
      201,
    );
    const toReject = expectStatus(
      await a.admin('POST', '/v1/approvals', {
        action: 'merge_pull_request',
        resource: { type: 'pull_request', id: '42' },
        run_id: run.id,
      }),
      201,
    );
    at['approval.approved'] = tick();
    expectStatus(await a.admin2('POST', `/v1/approvals/${toApprove.id}/approve`), 200);
    at['approval.rejected'] = tick();
    expectStatus(await a.admin2('POST', `/v1/approvals/${toReject.id}/reject`, { comment: 'Needs review' }), 200);

    at['repository.disconnected'] = tick();
    expectStatus(await a.admin('DELETE', `/v1/repositories/${repo.id}`), 204);
    events = await listAll(a.reader, '/v1/events');
  });
  after(async () => {
    await api?.close();
  });

  const ofType = (type: string) => events.filter((e) => e.type === type);

  it('all 13 event types are produced, each in the envelope {id, type, created, data, repository}', () => {
    assert.deepEqual([...new Set(events.map((e) => e.type))].sort(), [...PLATFORM_EVENT_TYPES].sort());
    for (const e of events) {
      assert.deepEqual(keys(e), ['created', 'data', 'id', 'repository', 'type'], e.type);
      assert.match(e.id, /^evt_[0-9A-Z]{26}$/);
      assert.match(e.created, ISO);
      assert.deepEqual(e.repository, { id: repo.id, name: 'acme/web' }, e.type);
      assert.equal(typeof e.data, 'object');
    }
    assert.equal(new Set(events.map((e) => e.id)).size, events.length, 'ids are unique');
    // agent.started and security.scan_completed happen twice, at two times; `at` has one of them.
    for (const [type, when] of Object.entries(at))
      assert.ok(
        ofType(type).some((e) => e.created === when),
        `${type} created at the source event's time`,
      );
    for (const [type, when] of Object.entries(at))
      if (type !== 'agent.started' && type !== 'security.scan_completed')
        assert.ok(
          ofType(type).every((e) => e.created === when),
          type,
        );
  });

  it('every event parses against its documented (strict) data schema and the envelope schema', () => {
    for (const e of events) {
      const parsed = PLATFORM_EVENT_DATA_SCHEMAS[e.type as PlatformEventType].safeParse(e.data);
      assert.ok(parsed.success, `${e.type}: ${parsed.success ? '' : JSON.stringify(parsed.error.issues)}`);
      assert.ok(platformEventSchema.safeParse(e).success, e.type);
    }
  });

  it('agent.completed: data exactly as the spec, field by field', () => {
    const [e] = ofType('agent.completed');
    assert.ok(e);
    const d = e.data;
    assert.deepEqual(keys(d), ['agent', 'pull_request', 'results', 'run']);
    assert.deepEqual(keys(d.agent), ['id', 'name', 'template']);
    assert.equal(d.agent.id, agent.id);
    assert.equal(d.agent.name, 'Reviewer');
    assert.equal(d.agent.template, 'code-review');
    assert.deepEqual(keys(d.run), ['duration_ms', 'id', 'issues_found', 'status']);
    assert.equal(d.run.id, completedRun.id);
    assert.equal(d.run.status, 'success');
    assert.ok(Number.isInteger(d.run.duration_ms));
    assert.equal(d.run.duration_ms, 4321);
    assert.ok(Number.isInteger(d.run.issues_found));
    assert.equal(d.run.issues_found, 4);
    assert.deepEqual(keys(d.pull_request), ['number', 'title', 'url']);
    assert.ok(Number.isInteger(d.pull_request.number));
    assert.equal(d.pull_request.number, 42);
    assert.equal(typeof d.pull_request.title, 'string');
    assert.equal(d.pull_request.title, pullRequest.title);
    assert.equal(d.pull_request.url, pullRequest.url);
    assert.ok(URL.canParse(d.pull_request.url));
    assert.deepEqual(keys(d.results), ['errors', 'info', 'warnings']);
    assert.deepEqual([d.results.errors, d.results.warnings, d.results.info], [2, 1, 1]);
    assert.ok([d.results.errors, d.results.warnings, d.results.info].every(Number.isInteger));
  });

  it('security.alert: data exactly as the spec, field by field', () => {
    const e = ofType('security.alert').find((x) => x.data.vulnerability.id === 'GHSA-29mw-wpgm-hmr9');
    assert.ok(e);
    const d = e.data;
    assert.deepEqual(keys(d), ['affected_files', 'recommendation', 'vulnerability']);
    assert.deepEqual(keys(d.vulnerability), ['fixed_in', 'id', 'package', 'severity', 'version']);
    assert.equal(d.vulnerability.id, 'GHSA-29mw-wpgm-hmr9');
    assert.equal(d.vulnerability.severity, 'high');
    assert.ok(['low', 'moderate', 'high', 'critical'].includes(d.vulnerability.severity));
    assert.equal(d.vulnerability.package, 'lodash');
    assert.equal(d.vulnerability.version, '4.17.15');
    assert.equal(d.vulnerability.fixed_in, '4.17.21');
    assert.ok(Array.isArray(d.affected_files) && d.affected_files.every((f: unknown) => typeof f === 'string'));
    assert.deepEqual(d.affected_files, ['package-lock.json', 'apps/web/package-lock.json']);
    assert.equal(d.recommendation, 'Upgrade lodash to 4.17.21 or later');
    assert.equal(e.repository.name, 'acme/web');
  });

  it('counts and contents of the others', () => {
    assert.equal(ofType('agent.started').length, 2);
    assert.equal(ofType('security.alert').length, 2);
    assert.equal(ofType('security.scan_completed').length, 2);
    assert.equal(ofType('approval.requested').length, 2);
    const issues = ofType('agent.issues_found')[0]!.data;
    assert.deepEqual([issues.run.issues_found, issues.issues.length, issues.issues_truncated], [4, 4, false]);
    assert.deepEqual(ofType('agent.failed')[0]!.data.error, { code: 'timeout', message: 'No answer in 30 min' });
    assert.equal(ofType('agent.failed')[0]!.data.run.duration_ms, 250);
    assert.equal(ofType('agent.failed')[0]!.data.pull_request, null);
    assert.equal(ofType('security.resolved')[0]!.data.vulnerability.id, 'GHSA-29mw-wpgm-hmr9');
    assert.deepEqual(ofType('security.scan_completed')[0]!.data.open, {
      total: 1,
      critical: 0,
      high: 0,
      moderate: 0,
      low: 1,
    });
    assert.equal(ofType('approval.rejected')[0]!.data.approval.comment, 'Needs review');
    assert.equal(ofType('repository.analyzed')[0]!.data.analysis.summary, 'TypeScript monorepo');
  });

  it('newest first, by cursor pages; filters by type (comma list) and repository (id or name, every connection)', async () => {
    const ids = events.map((e) => e.id);
    const created = events.map((e) => e.created);
    assert.deepEqual([...created].sort().reverse(), created, 'newest first');
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Body = expectStatus(
        await a.reader('GET', `/v1/events?limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`),
        200,
      );
      assert.ok(page.data.length <= 4);
      paged.push(...page.data.map((e: Body) => e.id));
      cursor = page.next_cursor;
    } while (cursor);
    assert.deepEqual(paged, ids);

    const agentEvents = await listAll(a.reader, '/v1/events?type=agent.completed,agent.failed');
    assert.deepEqual(agentEvents.map((e) => e.type).sort(), ['agent.completed', 'agent.failed']);
    assert.equal((await a.reader('GET', '/v1/events?type=agent.exploded')).status, 400);

    assert.equal((await listAll(a.reader, `/v1/events?repository=${repo.id}`)).length, events.length);
    const again = expectStatus(await a.admin('POST', '/v1/repositories', { name: 'acme/web' }), 201);
    assert.equal((await listAll(a.reader, `/v1/events?repository=${again.id}`)).length, 1);
    assert.equal(
      (await listAll(a.reader, '/v1/events?repository=ACME/web')).length,
      events.length + 1,
      'by name: both connections',
    );
    assert.deepEqual(await listAll(a.reader, '/v1/events?repository=acme/none'), []);
    assert.deepEqual(await listAll(a.reader, '/v1/events?repository=repo_01JZZZZZZZZZZZZZZZZZZZZZZZ'), []);
  });

  it('GET /v1/events/{id} gives the same envelope; other accounts see nothing of it', async () => {
    const one = events.find((e) => e.type === 'agent.completed')!;
    assert.deepEqual(expectStatus(await a.reader('GET', `/v1/events/${one.id}`), 200), one);
    assert.deepEqual(
      [(await b.admin('GET', `/v1/events/${one.id}`)).status, (await b.admin('GET', `/v1/events/${one.id}`)).body.code],
      [404, 'EVENT_NOT_FOUND'],
    );
    assert.deepEqual(await listAll(b.admin, '/v1/events'), []);
    assert.equal((await a.runner('GET', '/v1/events')).status, 403);
  });

  it('an approval with no repository has no repository field', async () => {
    const c = await domainAccount(api.app, api.url, { admin: ['admin'] });
    expectStatus(
      await c.admin('POST', '/v1/approvals', { action: 'deploy', resource: { type: 'deployment', id: 'production' } }),
      201,
    );
    const [e] = await listAll(c.admin, '/v1/events');
    assert.ok(e);
    assert.deepEqual(keys(e), ['created', 'data', 'id', 'type']);
    assert.equal(e.type, 'approval.requested');
  });
});
