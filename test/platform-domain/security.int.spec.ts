import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FakeClock } from '#kernel';
import { startTestApi, type TestApi } from '../api/support/test-api.js';
import { type Body, type Call, domainAccount, expectStatus, listAll, vuln } from './support/domain-client.js';

describe('security scans (real HTTP, embedded stores)', () => {
  let api: TestApi;
  const clock = new FakeClock('2026-03-01T10:00:00.000Z');
  let a: { accountId: string } & Record<'admin' | 'scanner' | 'reader' | 'runner', Call>;
  let b: { accountId: string } & Record<'admin', Call>;
  let repo: Body;

  before(async () => {
    api = await startTestApi({ clock });
    a = await domainAccount(api.app, api.url, {
      admin: ['admin'],
      scanner: ['write'],
      reader: ['read'],
      runner: ['agents:run'],
    });
    b = await domainAccount(api.app, api.url, { admin: ['admin'] });
    repo = expectStatus(await a.admin('POST', '/v1/repositories', { name: 'acme/web' }), 201);
  });
  after(async () => {
    await api?.close();
  });

  const scan = async (vulnerabilities: unknown[], repositoryId = repo.id as string) =>
    expectStatus(
      await a.scanner('POST', `/v1/repositories/${repositoryId}/security-scans`, {
        scanner: 'npm-audit',
        vulnerabilities,
      }),
      201,
      'scan',
    );
  const events = async (type: string, repositoryId = repo.id as string) =>
    listAll(a.reader, `/v1/events?type=${type}&repository=${repositoryId}`);

  it('a first scan opens one alert per vulnerability and answers the scan with its counts (201)', async () => {
    const result = await scan([
      vuln('GHSA-aaaa', 'lodash', 'high'),
      vuln('GHSA-bbbb', 'minimist', 'critical'),
      vuln('CVE-2024-1', 'axios', 'low', null),
    ]);
    assert.match(result.id, /^scan_[0-9A-Z]{26}$/);
    assert.deepEqual(result, {
      id: result.id,
      repository_id: repo.id,
      scanner: 'npm-audit',
      reported: 3,
      new_alerts: 3,
      resolved: 0,
      open: { total: 3, critical: 1, high: 1, moderate: 0, low: 1 },
      completed_at: clock.now().toISOString(),
    });
    const open = await listAll(a.reader, `/v1/repositories/${repo.id}/vulnerabilities`);
    assert.deepEqual(
      open.map((v) => v.vulnerability.id),
      ['GHSA-bbbb', 'GHSA-aaaa', 'CVE-2024-1'],
      'most severe first',
    );
    assert.ok(
      open.every(
        (v) =>
          /^vuln_[0-9A-Z]{26}$/.test(v.id) &&
          v.state === 'open' &&
          v.resolved_at === null &&
          v.repository.id === repo.id,
      ),
    );
    assert.equal(open[2]!.vulnerability.fixed_in, null);
    assert.equal((await events('security.alert')).length, 3);
    assert.equal((await events('security.scan_completed')).length, 1);
    const shown = expectStatus(await a.reader('GET', `/v1/repositories/${repo.id}`), 200);
    assert.deepEqual(shown.security, {
      open: { total: 3, critical: 1, high: 1, moderate: 0, low: 1 },
      last_scan_id: result.id,
      last_scanned_at: result.completed_at,
    });
  });

  it('the same list again emits no new alert (only security.scan_completed)', async () => {
    clock.advance(60_000);
    const again = await scan([
      vuln('GHSA-aaaa', 'lodash', 'high'),
      vuln('GHSA-bbbb', 'minimist', 'critical'),
      vuln('CVE-2024-1', 'axios', 'low', null),
    ]);
    assert.deepEqual([again.new_alerts, again.resolved, again.open.total], [0, 0, 3]);
    assert.equal((await events('security.alert')).length, 3);
    assert.equal((await events('security.resolved')).length, 0);
    assert.equal((await events('security.scan_completed')).length, 2);
  });

  it('one gone since the previous scan is resolved (security.resolved); a new one alerts; history lists both', async () => {
    clock.advance(60_000);
    const before = await listAll(a.reader, `/v1/repositories/${repo.id}/vulnerabilities`);
    const lodash = before.find((v) => v.vulnerability.id === 'GHSA-aaaa')!;
    const result = await scan([
      vuln('GHSA-bbbb', 'minimist', 'critical'),
      vuln('CVE-2024-1', 'axios', 'low', null),
      vuln('GHSA-cccc', 'express', 'moderate'),
    ]);
    assert.deepEqual(
      [result.new_alerts, result.resolved, result.open],
      [1, 1, { total: 3, critical: 1, high: 0, moderate: 1, low: 1 }],
    );
    const resolved = await events('security.resolved');
    assert.equal(resolved.length, 1);
    assert.equal(resolved[0]!.data.vulnerability.id, 'GHSA-aaaa');
    assert.equal((await events('security.alert')).length, 4);

    const open = await listAll(a.reader, `/v1/repositories/${repo.id}/vulnerabilities`);
    assert.deepEqual(open.map((v) => v.vulnerability.id).sort(), ['CVE-2024-1', 'GHSA-bbbb', 'GHSA-cccc']);
    const gone = await listAll(a.reader, `/v1/repositories/${repo.id}/vulnerabilities?state=resolved`);
    assert.deepEqual(
      gone.map((v) => [v.id, v.state, v.resolved_at]),
      [[lodash.id, 'resolved', clock.now().toISOString()]],
    );
    assert.equal((await listAll(a.reader, `/v1/repositories/${repo.id}/vulnerabilities?state=all`)).length, 4);
    assert.deepEqual(
      (await listAll(a.reader, `/v1/repositories/${repo.id}/vulnerabilities?severity=critical`)).map(
        (v) => v.vulnerability.id,
      ),
      ['GHSA-bbbb'],
    );
    const scans = await listAll(a.reader, `/v1/repositories/${repo.id}/security-scans`);
    assert.deepEqual(scans.map((s) => s.id)[0], result.id);
    assert.equal(scans.length, 3);
  });

  it('an empty list resolves everything; an alert that comes back is a new alert', async () => {
    clock.advance(60_000);
    const cleared = await scan([]);
    assert.deepEqual([cleared.resolved, cleared.open.total], [3, 0]);
    assert.deepEqual(await listAll(a.reader, `/v1/repositories/${repo.id}/vulnerabilities`), []);
    clock.advance(60_000);
    const back = await scan([vuln('GHSA-bbbb', 'minimist', 'critical')]);
    assert.equal(back.new_alerts, 1);
    const open = await listAll(a.reader, `/v1/repositories/${repo.id}/vulnerabilities`);
    const old = (await listAll(a.reader, `/v1/repositories/${repo.id}/vulnerabilities?state=resolved`)).find(
      (v) => v.vulnerability.id === 'GHSA-bbbb',
    )!;
    assert.equal(open.length, 1);
    assert.notEqual(open[0]!.id, old.id);
  });

  it('refuses duplicates, unknown severities and strays (400); scope write (403); 404 across accounts', async () => {
    const dup = await a.scanner('POST', `/v1/repositories/${repo.id}/security-scans`, {
      vulnerabilities: [vuln('GHSA-x'), vuln('GHSA-x')],
    });
    assert.deepEqual([dup.status, dup.body.details?.[0]?.path], [400, 'body.vulnerabilities.1']);
    assert.equal(
      (
        await a.scanner('POST', `/v1/repositories/${repo.id}/security-scans`, {
          vulnerabilities: [vuln('GHSA-x', 'p', 'severe')],
        })
      ).status,
      400,
    );
    assert.equal(
      (
        await a.scanner('POST', `/v1/repositories/${repo.id}/security-scans`, {
          vulnerabilities: [{ ...vuln('GHSA-x'), cvss: 9 }],
        })
      ).status,
      400,
    );
    assert.equal((await a.scanner('POST', `/v1/repositories/${repo.id}/security-scans`, {})).status, 400);
    for (const call of [a.reader, a.runner]) {
      const res = await call('POST', `/v1/repositories/${repo.id}/security-scans`, { vulnerabilities: [] });
      assert.deepEqual([res.status, res.body.required_scope], [403, 'write']);
    }
    assert.equal((await a.runner('GET', `/v1/repositories/${repo.id}/vulnerabilities`)).status, 403);
    const theirs = expectStatus(await b.admin('POST', '/v1/repositories', { name: 'beta/web' }), 201);
    expectStatus(
      await b.admin('POST', `/v1/repositories/${theirs.id}/security-scans`, { vulnerabilities: [vuln('GHSA-secret')] }),
      201,
    );
    assert.equal((await a.admin('GET', `/v1/repositories/${theirs.id}/vulnerabilities`)).status, 404);
    assert.ok(
      !(await listAll(a.reader, '/v1/events?type=security.alert')).some(
        (e) => e.data.vulnerability.id === 'GHSA-secret',
      ),
    );
  });
});
