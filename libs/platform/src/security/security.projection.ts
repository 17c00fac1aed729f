import type { RecordedEvent } from '#eventstore';
import type { ProjectionDefinition } from '#projections';
import type { RepositoryRef } from '../repositories/repository.events.js';
import {
  type OpenCounts,
  SECURITY_EVENT_TYPES,
  type SecurityEvent,
  type Severity,
  type VulnerabilityInfo,
} from './security.events.js';

/** One alert: an advisory in a package of a repository, open until a scan no longer lists it. */
export interface VulnerabilityDoc {
  [key: string]: unknown;
  /** `vuln_…` */
  id: string;
  account_id: string;
  repository_id: string;
  repository: RepositoryRef;
  state: 'open' | 'resolved';
  vulnerability: VulnerabilityInfo;
  /** critical 4, high 3, moderate 2, low 1: lists sort by it. */
  severity_rank: number;
  affected_files: string[];
  recommendation: string;
  detected_at: string;
  detected_in_scan: string;
  updated_at: string;
  resolved_at: string | null;
  resolved_in_scan: string | null;
}

export interface ScanDoc {
  [key: string]: unknown;
  /** `scan_…` */
  id: string;
  account_id: string;
  repository_id: string;
  scanner: string | null;
  reported: number;
  new_alerts: number;
  resolved: number;
  open: OpenCounts;
  reported_by: string | null;
  completed_at: string;
}

export const SECURITY_PROJECTION = 'security';
export const VULNERABILITIES_COLLECTION = 'vulnerabilities';
export const SECURITY_SCANS_COLLECTION = 'security_scans';

export const SEVERITY_RANK: Record<Severity, number> = { low: 1, moderate: 2, high: 3, critical: 4 };

export const securityProjection: ProjectionDefinition = {
  name: SECURITY_PROJECTION,
  version: 1,
  eventTypes: SECURITY_EVENT_TYPES,
  collections: [
    {
      name: VULNERABILITIES_COLLECTION,
      indexes: [
        {
          fields: [
            ['repository_id', 1],
            ['state', 1],
            ['severity_rank', -1],
            ['detected_at', -1],
          ],
        },
        {
          fields: [
            ['repository_id', 1],
            ['state', 1],
            ['vulnerability.severity', 1],
            ['detected_at', -1],
          ],
        },
      ],
    },
    {
      name: SECURITY_SCANS_COLLECTION,
      indexes: [
        {
          fields: [
            ['repository_id', 1],
            ['completed_at', -1],
          ],
        },
      ],
    },
  ],
  async handle(raw: RecordedEvent, ctx) {
    const event = raw as unknown as SecurityEvent;
    switch (event.type) {
      case 'VulnerabilityDetected': {
        const d = event.data;
        const doc: VulnerabilityDoc = {
          id: d.alert_id,
          account_id: d.account_id,
          repository_id: d.repository.id,
          repository: d.repository,
          state: 'open',
          vulnerability: d.vulnerability,
          severity_rank: SEVERITY_RANK[d.vulnerability.severity],
          affected_files: d.affected_files,
          recommendation: d.recommendation,
          detected_at: d.detected_at,
          detected_in_scan: d.scan_id,
          updated_at: d.detected_at,
          resolved_at: null,
          resolved_in_scan: null,
        };
        ctx.upsert(VULNERABILITIES_COLLECTION, doc);
        return;
      }
      case 'VulnerabilityUpdated': {
        const d = event.data;
        const doc = await ctx.get<VulnerabilityDoc>(VULNERABILITIES_COLLECTION, d.alert_id);
        if (doc) {
          ctx.upsert(VULNERABILITIES_COLLECTION, {
            ...doc,
            vulnerability: d.vulnerability,
            severity_rank: SEVERITY_RANK[d.vulnerability.severity],
            affected_files: d.affected_files,
            recommendation: d.recommendation,
            updated_at: d.updated_at,
          });
        }
        return;
      }
      case 'VulnerabilityResolved': {
        const d = event.data;
        const doc = await ctx.get<VulnerabilityDoc>(VULNERABILITIES_COLLECTION, d.alert_id);
        if (doc)
          ctx.upsert(VULNERABILITIES_COLLECTION, {
            ...doc,
            state: 'resolved',
            resolved_at: d.resolved_at,
            resolved_in_scan: d.scan_id,
            updated_at: d.resolved_at,
          });
        return;
      }
      case 'SecurityScanCompleted': {
        const d = event.data;
        const scan: ScanDoc = {
          id: d.scan_id,
          account_id: d.account_id,
          repository_id: d.repository.id,
          scanner: d.scanner,
          reported: d.reported,
          new_alerts: d.new_alerts,
          resolved: d.resolved,
          open: d.open,
          reported_by: d.reported_by,
          completed_at: d.completed_at,
        };
        ctx.upsert(SECURITY_SCANS_COLLECTION, scan);
        return;
      }
    }
  },
};
