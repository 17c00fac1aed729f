import type { RepositoryRef } from '../repositories/repository.events.js';

/** D10 severities, lowest first. */
export const SEVERITIES = ['low', 'moderate', 'high', 'critical'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** `data.vulnerability` of security.alert, exactly as the spec's table. */
export interface VulnerabilityInfo {
  /** Advisory id (GHSA-…, CVE-…). */
  id: string;
  severity: Severity;
  package: string;
  version: string;
  /** First fixed version; null while no fix exists. */
  fixed_in: string | null;
}

/** One entry of a scanner's report. An alert is one (advisory id, package) pair. */
export interface ReportedVulnerability {
  vulnerability: VulnerabilityInfo;
  affected_files: string[];
  recommendation: string;
}

export interface OpenCounts {
  total: number;
  critical: number;
  high: number;
  moderate: number;
  low: number;
}

interface SecurityEventBase {
  account_id: string;
  repository: RepositoryRef;
  scan_id: string;
}

/**
 * Stored event types of `security-{repository_id}` streams (one per connected repository). A
 * scan report appends, in this order: VulnerabilityDetected for each new alert,
 * VulnerabilityResolved for each open alert the report no longer lists, VulnerabilityUpdated for
 * open alerts whose details changed, then SecurityScanCompleted. Names are stable: never rename.
 */
export type SecurityEvent =
  | {
      type: 'VulnerabilityDetected';
      data: SecurityEventBase & ReportedVulnerability & { alert_id: string; detected_at: string };
    }
  | {
      type: 'VulnerabilityUpdated';
      data: SecurityEventBase & ReportedVulnerability & { alert_id: string; updated_at: string };
    }
  | {
      type: 'VulnerabilityResolved';
      data: SecurityEventBase & ReportedVulnerability & { alert_id: string; resolved_at: string };
    }
  | {
      type: 'SecurityScanCompleted';
      data: SecurityEventBase & {
        scanner: string | null;
        reported: number;
        new_alerts: number;
        resolved: number;
        open: OpenCounts;
        reported_by: string | null;
        completed_at: string;
      };
    };

export const SECURITY_EVENT_TYPES: SecurityEvent['type'][] = [
  'VulnerabilityDetected',
  'VulnerabilityUpdated',
  'VulnerabilityResolved',
  'SecurityScanCompleted',
];

export const securityStream = (repositoryId: string) => `security-${repositoryId}`;
