import { assertNever, type Decider, Errors, type ErrorDetail } from '#kernel';
import { derivedId } from '../platform-events/derived-id.js';
import type { RepositoryRef } from '../repositories/repository.events.js';
import { type OpenCounts, type ReportedVulnerability, type SecurityEvent } from './security.events.js';

/** Entries one report may list at most. */
export const MAX_REPORTED_VULNERABILITIES = 2000;

export type SecurityCommand = {
  type: 'ReportScan';
  scanId: string;
  accountId: string;
  repository: RepositoryRef;
  scanner: string | null;
  /** The repository's FULL current list: what it omits counts as fixed. */
  vulnerabilities: ReportedVulnerability[];
  by: string | null;
  now: Date;
};

export interface OpenAlert extends ReportedVulnerability {
  alertId: string;
}

/** The open alerts of one repository by alert key. */
export interface SecurityState {
  open: Record<string, OpenAlert>;
}

/** An alert is one advisory in one package: the same advisory in two packages is two alerts. */
export const alertKey = (v: { id: string; package: string }) => JSON.stringify([v.id, v.package]);

/**
 * The alert's id (`vuln_…`): derived from the repository, the alert key and the scan that found
 * it, so it is the same on every replay, and an alert that comes back after being resolved gets
 * a new one.
 */
export const alertIdFor = (repositoryId: string, key: string, scanId: string, at: Date) =>
  derivedId('vuln', at.getTime(), repositoryId, key, scanId);

const sameDetails = (a: ReportedVulnerability, b: ReportedVulnerability) =>
  JSON.stringify([a.vulnerability, a.affected_files, a.recommendation]) ===
  JSON.stringify([b.vulnerability, b.affected_files, b.recommendation]);

export function countOpen(open: Iterable<ReportedVulnerability>): OpenCounts {
  const counts: OpenCounts = { total: 0, critical: 0, high: 0, moderate: 0, low: 0 };
  for (const v of open) {
    counts.total++;
    counts[v.vulnerability.severity]++;
  }
  return counts;
}

export const securityDecider: Decider<SecurityCommand, SecurityEvent, SecurityState> = {
  initialState: { open: {} },

  evolve(state, event) {
    switch (event.type) {
      case 'VulnerabilityDetected':
      case 'VulnerabilityUpdated': {
        const { vulnerability, affected_files, recommendation, alert_id } = event.data;
        return {
          open: {
            ...state.open,
            [alertKey(vulnerability)]: { alertId: alert_id, vulnerability, affected_files, recommendation },
          },
        };
      }
      case 'VulnerabilityResolved': {
        const { [alertKey(event.data.vulnerability)]: _gone, ...open } = state.open;
        return { open };
      }
      case 'SecurityScanCompleted':
        return state;
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    if (command.type !== 'ReportScan') return assertNever(command.type);
    if (command.vulnerabilities.length > MAX_REPORTED_VULNERABILITIES) {
      throw Errors.validation([
        { path: 'body.vulnerabilities', message: `at most ${MAX_REPORTED_VULNERABILITIES} entries` },
      ]);
    }
    const reported = new Map<string, ReportedVulnerability>();
    const details: ErrorDetail[] = [];
    command.vulnerabilities.forEach((v, i) => {
      const key = alertKey(v.vulnerability);
      if (reported.has(key))
        details.push({
          path: `body.vulnerabilities.${i}`,
          message: 'lists the same vulnerability id and package twice',
        });
      reported.set(key, v);
    });
    if (details.length) throw Errors.validation(details);

    const at = command.now.toISOString();
    const base = { account_id: command.accountId, repository: command.repository, scan_id: command.scanId };
    const detected: SecurityEvent[] = [];
    const resolved: SecurityEvent[] = [];
    const updated: SecurityEvent[] = [];
    for (const [key, v] of reported) {
      const open = state.open[key];
      if (!open) {
        detected.push({
          type: 'VulnerabilityDetected',
          data: {
            ...base,
            alert_id: alertIdFor(command.repository.id, key, command.scanId, command.now),
            ...copy(v),
            detected_at: at,
          },
        });
      } else if (!sameDetails(open, v)) {
        updated.push({
          type: 'VulnerabilityUpdated',
          data: { ...base, alert_id: open.alertId, ...copy(v), updated_at: at },
        });
      }
    }
    for (const [key, open] of Object.entries(state.open)) {
      if (!reported.has(key))
        resolved.push({
          type: 'VulnerabilityResolved',
          data: { ...base, alert_id: open.alertId, ...copy(open), resolved_at: at },
        });
    }
    return [
      ...detected,
      ...resolved,
      ...updated,
      {
        type: 'SecurityScanCompleted',
        data: {
          ...base,
          scanner: command.scanner,
          reported: reported.size,
          new_alerts: detected.length,
          resolved: resolved.length,
          open: countOpen(reported.values()),
          reported_by: command.by,
          completed_at: at,
        },
      },
    ];
  },
};

function copy(v: ReportedVulnerability): ReportedVulnerability {
  const { id, severity, package: pkg, version, fixed_in } = v.vulnerability;
  return {
    vulnerability: { id, severity, package: pkg, version, fixed_in },
    affected_files: [...v.affected_files],
    recommendation: v.recommendation,
  };
}
