import type { AgentRef } from '../agents/agent.events.js';
import type { RepositoryRef } from '../repositories/repository.events.js';

/** Run states (D9): queued → running → success | failed | cancelled (queued → cancelled too). */
export const RUN_STATUSES = ['queued', 'running', 'success', 'failed', 'cancelled'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export const FINDING_LEVELS = ['error', 'warning', 'info'] as const;
export type FindingLevel = (typeof FINDING_LEVELS)[number];

/** One issue a run found. `file`, `line` and `rule` are null when they do not apply. */
export interface Finding {
  level: FindingLevel;
  file: string | null;
  line: number | null;
  message: string;
  rule: string | null;
}

/** Findings counted by level (`data.results` of agent.completed). */
export interface FindingCounts {
  errors: number;
  warnings: number;
  info: number;
}

export interface PullRequestRef {
  number: number;
  title: string;
  url: string;
}

/** What every run event repeats, so each one can be published on its own (platform events). */
export interface RunEventBase {
  run_id: string;
  account_id: string;
  agent: AgentRef;
  repository: RepositoryRef;
  pull_request: PullRequestRef | null;
}

/** Findings carried by agent.issues_found at most (the run's findings endpoint has them all). */
export const ISSUES_IN_EVENT = 100;

/** Stored event types of `run-{run_id}` streams. Names are stable: never rename. */
export type RunEvent =
  | {
      type: 'RunQueued';
      data: RunEventBase & {
        /** The agent's config when the run was queued: what the runner executes. */
        config: Record<string, unknown>;
        ref: string | null;
        queued_by: string | null;
        queued_at: string;
      };
    }
  | { type: 'RunClaimed'; data: RunEventBase & { claimed_by: string; started_at: string } }
  | {
      type: 'RunSucceeded';
      data: RunEventBase & {
        started_at: string;
        finished_at: string;
        duration_ms: number;
        issues_found: number;
        results: FindingCounts;
        summary: string | null;
        findings: Finding[];
      };
    }
  /** Appended with RunSucceeded when it found anything (agent.issues_found). */
  | {
      type: 'RunIssuesFound';
      data: RunEventBase & {
        issues_found: number;
        results: FindingCounts;
        issues: Finding[];
        issues_truncated: boolean;
        found_at: string;
      };
    }
  | {
      type: 'RunFailed';
      data: RunEventBase & {
        started_at: string;
        finished_at: string;
        duration_ms: number;
        error: { code: string | null; message: string };
      };
    }
  | {
      type: 'RunCancelled';
      data: RunEventBase & {
        previous_status: 'queued' | 'running';
        reason: string | null;
        cancelled_by: string | null;
        cancelled_at: string;
      };
    };

export const RUN_EVENT_TYPES: RunEvent['type'][] = [
  'RunQueued',
  'RunClaimed',
  'RunSucceeded',
  'RunIssuesFound',
  'RunFailed',
  'RunCancelled',
];

export const runStream = (runId: string) => `run-${runId}`;

export function countFindings(findings: readonly Finding[]): FindingCounts {
  const counts: FindingCounts = { errors: 0, warnings: 0, info: 0 };
  for (const f of findings) {
    if (f.level === 'error') counts.errors++;
    else if (f.level === 'warning') counts.warnings++;
    else counts.info++;
  }
  return counts;
}
