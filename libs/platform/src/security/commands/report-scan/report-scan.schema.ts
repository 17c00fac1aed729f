import { z } from 'zod';
import { MAX_REPORTED_VULNERABILITIES } from '../../security.decider.js';
import { SEVERITIES } from '../../security.events.js';

const reportedVulnerability = z
  .strictObject({
    vulnerability: z.strictObject({
      id: z.string().trim().min(1).max(100).describe('Advisory id (GHSA-…, CVE-…).'),
      severity: z.enum(SEVERITIES),
      package: z.string().trim().min(1).max(214),
      version: z.string().trim().min(1).max(100),
      fixed_in: z
        .string()
        .trim()
        .min(1)
        .max(100)
        .nullable()
        .default(null)
        .describe('First fixed version; null or absent while there is no fix.'),
    }),
    affected_files: z
      .array(z.string().min(1).max(1024))
      .max(1000)
      .default([])
      .describe('Files that bring the package in (manifests, lock files).'),
    recommendation: z.string().trim().min(1).max(4000).describe('Suggested remedy.'),
  })
  .meta({ id: 'ReportedVulnerability' });

export const reportScanBody = z
  .object({
    scanner: z.string().trim().min(1).max(100).optional().describe('Name of the scanning tool.'),
    vulnerabilities: z
      .array(reportedVulnerability)
      .max(MAX_REPORTED_VULNERABILITIES)
      .describe(
        'The FULL current list; an open alert missing from it is resolved. One entry per (advisory id, package).',
      ),
  })
  .meta({ id: 'ReportSecurityScanRequest' });
