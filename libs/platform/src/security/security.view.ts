import { z } from 'zod';
import { openCountsSchema } from '../repositories/repository.view.js';
import { SEVERITIES } from './security.events.js';
import type { ScanDoc, VulnerabilityDoc } from './security.projection.js';

export const vulnerabilityInfoSchema = z
  .object({
    id: z.string().describe('Advisory id (GHSA-…, CVE-…).'),
    severity: z.enum(SEVERITIES),
    package: z.string(),
    version: z.string().describe('Affected version in use.'),
    fixed_in: z.string().nullable().describe('First fixed version; null while there is no fix.'),
  })
  .meta({ id: 'VulnerabilityInfo' });

export const vulnerabilityAlertSchema = z
  .object({
    id: z
      .string()
      .describe('Alert id (`vuln_…`): one advisory in one package of this repository, from detection to resolution.'),
    state: z.enum(['open', 'resolved']),
    vulnerability: vulnerabilityInfoSchema,
    affected_files: z.array(z.string()),
    recommendation: z.string(),
    repository: z.object({ id: z.string(), name: z.string() }),
    detected_at: z.string().describe('ISO 8601 UTC.'),
    updated_at: z.string(),
    resolved_at: z.string().nullable().describe('When a scan stopped listing it.'),
  })
  .meta({ id: 'VulnerabilityAlert' });
export type VulnerabilityAlertView = z.output<typeof vulnerabilityAlertSchema>;

export function toVulnerabilityAlertView(doc: VulnerabilityDoc): VulnerabilityAlertView {
  return {
    id: doc.id,
    state: doc.state,
    vulnerability: doc.vulnerability,
    affected_files: doc.affected_files,
    recommendation: doc.recommendation,
    repository: doc.repository,
    detected_at: doc.detected_at,
    updated_at: doc.updated_at,
    resolved_at: doc.resolved_at,
  };
}

export const securityScanSchema = z
  .object({
    id: z.string().describe('Scan id (`scan_…`).'),
    repository_id: z.string(),
    scanner: z.string().nullable(),
    reported: z.number().int().describe('Vulnerabilities the scanner listed.'),
    new_alerts: z.number().int().describe('Alerts opened by this scan (one `security.alert` each).'),
    resolved: z.number().int().describe('Alerts this scan no longer listed (one `security.resolved` each).'),
    open: openCountsSchema,
    completed_at: z.string().describe('ISO 8601 UTC.'),
  })
  .meta({ id: 'SecurityScan' });
export type SecurityScanView = z.output<typeof securityScanSchema>;

export function toSecurityScanView(doc: ScanDoc): SecurityScanView {
  return {
    id: doc.id,
    repository_id: doc.repository_id,
    scanner: doc.scanner,
    reported: doc.reported,
    new_alerts: doc.new_alerts,
    resolved: doc.resolved,
    open: doc.open,
    completed_at: doc.completed_at,
  };
}
