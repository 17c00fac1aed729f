import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError, fold } from '#kernel';
import { deciderSpec } from '#kernel/testing';
import { alertIdFor, alertKey, type SecurityCommand, securityDecider } from './security.decider.js';
import type { ReportedVulnerability, SecurityEvent } from './security.events.js';

const spec = deciderSpec(securityDecider);
const t1 = new Date('2026-03-01T10:00:00.000Z');
const t2 = new Date('2026-03-02T10:00:00.000Z');
const repository = { id: 'repo_1', name: 'acme/web' };

const vuln = (
  id: string,
  pkg = 'lodash',
  severity: ReportedVulnerability['vulnerability']['severity'] = 'high',
): ReportedVulnerability => ({
  vulnerability: { id, severity, package: pkg, version: '4.17.15', fixed_in: '4.17.21' },
  affected_files: ['package-lock.json'],
  recommendation: `Upgrade ${pkg} to 4.17.21`,
});
const report = (scanId: string, vulnerabilities: ReportedVulnerability[], now = t1): SecurityCommand => ({
  type: 'ReportScan',
  scanId,
  accountId: 'acct_1',
  repository,
  scanner: 'audit',
  vulnerabilities,
  by: 'key_scanner',
  now,
});
const history = (...commands: SecurityCommand[]): SecurityEvent[] => {
  const events: SecurityEvent[] = [];
  for (const c of commands) events.push(...securityDecider.decide(c, fold(securityDecider, events)));
  return events;
};
const types = (events: SecurityEvent[]) => events.map((e) => e.type);

describe('security decider (scan diffing)', () => {
  it('a first scan opens one alert per vulnerability, then completes with the counts', () => {
    const a = vuln('GHSA-1');
    const b = vuln('GHSA-2', 'minimist', 'critical');
    const idA = alertIdFor('repo_1', alertKey(a.vulnerability), 'scan_1', t1);
    const idB = alertIdFor('repo_1', alertKey(b.vulnerability), 'scan_1', t1);
    const scanBase = { account_id: 'acct_1', repository, scan_id: 'scan_1' };
    spec
      .given([])
      .when(report('scan_1', [a, b]))
      .then([
        { type: 'VulnerabilityDetected', data: { ...scanBase, alert_id: idA, ...a, detected_at: t1.toISOString() } },
        { type: 'VulnerabilityDetected', data: { ...scanBase, alert_id: idB, ...b, detected_at: t1.toISOString() } },
        {
          type: 'SecurityScanCompleted',
          data: {
            ...scanBase,
            scanner: 'audit',
            reported: 2,
            new_alerts: 2,
            resolved: 0,
            open: { total: 2, critical: 1, high: 1, moderate: 0, low: 0 },
            reported_by: 'key_scanner',
            completed_at: t1.toISOString(),
          },
        },
      ]);
    assert.match(idA, /^vuln_[0-9A-Z]{26}$/);
    assert.notEqual(idA, idB);
  });

  it('the same list twice opens and resolves nothing: only the completion', () => {
    const list = [vuln('GHSA-1'), vuln('GHSA-2', 'minimist')];
    const events = securityDecider.decide(
      report('scan_2', list, t2),
      fold(securityDecider, history(report('scan_1', list))),
    );
    assert.deepEqual(types(events), ['SecurityScanCompleted']);
    const done = events[0]!;
    assert.ok(
      done.type === 'SecurityScanCompleted' &&
        done.data.new_alerts === 0 &&
        done.data.resolved === 0 &&
        done.data.open.total === 2,
    );
  });

  it('a vulnerability gone since the previous scan is resolved (with its alert id); a new one is opened', () => {
    const past = history(report('scan_1', [vuln('GHSA-1'), vuln('GHSA-2', 'minimist')]));
    const first = past[0]!;
    assert.equal(first.type, 'VulnerabilityDetected');
    const events = securityDecider.decide(
      report('scan_2', [vuln('GHSA-2', 'minimist'), vuln('GHSA-3', 'axios', 'moderate')], t2),
      fold(securityDecider, past),
    );
    assert.deepEqual(types(events), ['VulnerabilityDetected', 'VulnerabilityResolved', 'SecurityScanCompleted']);
    const resolved = events[1]!;
    assert.ok(resolved.type === 'VulnerabilityResolved' && first.type === 'VulnerabilityDetected');
    assert.equal(resolved.data.alert_id, first.data.alert_id);
    assert.equal(resolved.data.vulnerability.id, 'GHSA-1');
    assert.equal(resolved.data.resolved_at, t2.toISOString());
    const done = events[2]!;
    assert.ok(done.type === 'SecurityScanCompleted');
    assert.deepEqual(
      [done.data.new_alerts, done.data.resolved, done.data.open],
      [1, 1, { total: 2, critical: 0, high: 1, moderate: 1, low: 0 }],
    );
  });

  it('an empty list resolves everything open', () => {
    const events = securityDecider.decide(
      report('scan_2', [], t2),
      fold(securityDecider, history(report('scan_1', [vuln('GHSA-1'), vuln('GHSA-2', 'x')]))),
    );
    assert.deepEqual(types(events), ['VulnerabilityResolved', 'VulnerabilityResolved', 'SecurityScanCompleted']);
  });

  it('changed details of an open alert update it quietly (no new alert)', () => {
    const changed = { ...vuln('GHSA-1'), affected_files: ['package-lock.json', 'apps/web/package-lock.json'] };
    const events = securityDecider.decide(
      report('scan_2', [changed], t2),
      fold(securityDecider, history(report('scan_1', [vuln('GHSA-1')]))),
    );
    assert.deepEqual(types(events), ['VulnerabilityUpdated', 'SecurityScanCompleted']);
  });

  it('the same advisory in two packages is two alerts; a resolved one that comes back is a new alert with a new id', () => {
    assert.deepEqual(
      types(
        securityDecider.decide(report('scan_1', [vuln('GHSA-1', 'a'), vuln('GHSA-1', 'b')]), fold(securityDecider, [])),
      ),
      ['VulnerabilityDetected', 'VulnerabilityDetected', 'SecurityScanCompleted'],
    );
    const past = history(report('scan_1', [vuln('GHSA-1')]), report('scan_2', [], t2));
    const back = securityDecider.decide(report('scan_3', [vuln('GHSA-1')], t2), fold(securityDecider, past));
    const first = past[0]!;
    const again = back[0]!;
    assert.ok(first.type === 'VulnerabilityDetected' && again.type === 'VulnerabilityDetected');
    assert.notEqual(again.data.alert_id, first.data.alert_id);
  });

  it('refuses a list naming the same (advisory, package) twice', () => {
    spec
      .given([])
      .when(report('scan_1', [vuln('GHSA-1'), vuln('GHSA-1')]))
      .thenThrows((e) => e instanceof AppError && e.code === 'VALIDATION_FAILED');
  });
});
