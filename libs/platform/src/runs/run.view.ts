import { z } from 'zod';
import { AGENT_TEMPLATE_IDS } from '../agents/agent-templates.js';
import { FINDING_LEVELS, RUN_STATUSES } from './run.events.js';
import type { FindingDoc, RunDoc } from './runs.projection.js';

export const pullRequestSchema = z
  .object({ number: z.number().int().min(1), title: z.string(), url: z.string() })
  .meta({ id: 'PullRequestRef' });

export const findingCountsSchema = z
  .object({ errors: z.number().int(), warnings: z.number().int(), info: z.number().int() })
  .describe('Findings by level.')
  .meta({ id: 'FindingCounts' });

export const runViewSchema = z
  .object({
    id: z.string().describe('Run id (`run_…`).'),
    status: z
      .enum(RUN_STATUSES)
      .describe('queued → running → success | failed | cancelled (a queued run can be cancelled too).'),
    agent: z
      .object({ id: z.string(), name: z.string(), template: z.enum(AGENT_TEMPLATE_IDS) })
      .describe('The agent as it was when the run was queued.'),
    repository: z.object({ id: z.string(), name: z.string() }),
    pull_request: pullRequestSchema.nullable(),
    ref: z.string().nullable().describe('Branch, tag or commit to run against, when given.'),
    config: z
      .record(z.string(), z.unknown())
      .describe("The agent's config when the run was queued: what the runner executes."),
    queued_at: z.string().describe('ISO 8601 UTC.'),
    started_at: z.string().nullable().describe('When a runner claimed it.'),
    finished_at: z.string().nullable().describe('When it succeeded, failed or was cancelled.'),
    duration_ms: z.number().int().nullable().describe('From start to success or failure, in milliseconds.'),
    issues_found: z.number().int().nullable(),
    results: findingCountsSchema.nullable(),
    summary: z.string().nullable(),
    error: z.object({ code: z.string().nullable(), message: z.string() }).nullable().describe('Why it failed.'),
    claimed_by: z
      .string()
      .nullable()
      .describe('Credential (`key_…`) of the runner that claimed it: only it reports the outcome.'),
    cancel_reason: z.string().nullable(),
  })
  .meta({ id: 'Run' });
export type RunView = z.output<typeof runViewSchema>;

export function toRunView(doc: RunDoc): RunView {
  return {
    id: doc.id,
    status: doc.status,
    agent: doc.agent,
    repository: doc.repository,
    pull_request: doc.pull_request,
    ref: doc.ref,
    config: JSON.parse(doc.config_json) as Record<string, unknown>,
    queued_at: doc.queued_at,
    started_at: doc.started_at,
    finished_at: doc.finished_at,
    duration_ms: doc.duration_ms,
    issues_found: doc.issues_found,
    results: doc.results,
    summary: doc.summary,
    error: doc.error,
    claimed_by: doc.claimed_by,
    cancel_reason: doc.cancel_reason,
  };
}

export const findingViewSchema = z
  .object({
    level: z.enum(FINDING_LEVELS),
    file: z.string().nullable(),
    line: z.number().int().nullable(),
    message: z.string(),
    rule: z.string().nullable(),
  })
  .meta({ id: 'Finding' });
export type FindingView = z.output<typeof findingViewSchema>;

export function toFindingView(doc: FindingDoc): FindingView {
  return { level: doc.level, file: doc.file, line: doc.line, message: doc.message, rule: doc.rule };
}

export const runIdParams = z.object({ id: z.string().min(1).max(64).describe('Run id (`run_…`).') });
