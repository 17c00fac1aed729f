import { z } from 'zod';
import type { AnalysisDoc, RepositoryDoc } from './repositories.projection.js';
import { REPOSITORY_PROVIDERS } from './repository.events.js';

export const openCountsSchema = z
  .object({
    total: z.number().int(),
    critical: z.number().int(),
    high: z.number().int(),
    moderate: z.number().int(),
    low: z.number().int(),
  })
  .meta({ id: 'OpenVulnerabilityCounts' });

export const repositoryViewSchema = z
  .object({
    id: z
      .string()
      .describe('Repository id (`repo_…`). A repository connected again after a disconnection gets a new id.'),
    name: z.string().describe('`owner/repo`, as connected.'),
    provider: z.enum(REPOSITORY_PROVIDERS),
    url: z.string().nullable(),
    status: z.enum(['connected', 'disconnected']),
    connected_at: z.string().describe('ISO 8601 UTC.'),
    disconnected_at: z.string().nullable(),
    last_analysis: z
      .object({ id: z.string(), summary: z.string(), commit_sha: z.string().nullable(), analyzed_at: z.string() })
      .nullable()
      .describe('The latest reported analysis (POST /v1/repositories/{id}/analyses).'),
    security: z
      .object({ open: openCountsSchema, last_scan_id: z.string(), last_scanned_at: z.string() })
      .nullable()
      .describe('Open vulnerabilities after the latest security scan; null before the first.'),
  })
  .meta({ id: 'Repository' });
export type RepositoryView = z.output<typeof repositoryViewSchema>;

export function toRepositoryView(doc: RepositoryDoc): RepositoryView {
  return {
    id: doc.id,
    name: doc.name,
    provider: doc.provider,
    url: doc.url,
    status: doc.status,
    connected_at: doc.connected_at,
    disconnected_at: doc.disconnected_at,
    last_analysis: doc.last_analysis,
    security: doc.security,
  };
}

export const analysisViewSchema = z
  .object({
    id: z.string().describe('Analysis id (`ana_…`).'),
    repository_id: z.string(),
    summary: z.string(),
    commit_sha: z.string().nullable(),
    languages: z.array(z.string()),
    metrics: z.record(z.string(), z.number()),
    analyzed_at: z.string().describe('ISO 8601 UTC.'),
  })
  .meta({ id: 'RepositoryAnalysis' });
export type AnalysisView = z.output<typeof analysisViewSchema>;

export function toAnalysisView(doc: AnalysisDoc): AnalysisView {
  return {
    id: doc.id,
    repository_id: doc.repository_id,
    summary: doc.summary,
    commit_sha: doc.commit_sha,
    languages: doc.languages,
    metrics: doc.metrics,
    analyzed_at: doc.analyzed_at,
  };
}

/** `{id}` of /v1/repositories/{id}; ids that cannot exist answer 404 like unknown ones. */
export const repositoryIdParams = z.object({ id: z.string().min(1).max(64).describe('Repository id (`repo_…`).') });
