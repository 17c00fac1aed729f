import type { RecordedEvent } from '#eventstore';
import type { ProjectionDefinition } from '#projections';
import type { AgentRef } from '../agents/agent.events.js';
import type { RepositoryRef } from '../repositories/repository.events.js';
import {
  type Finding,
  type FindingCounts,
  type FindingLevel,
  type PullRequestRef,
  RUN_EVENT_TYPES,
  type RunEvent,
  type RunStatus,
} from './run.events.js';

export interface RunDoc {
  [key: string]: unknown;
  id: string;
  account_id: string;
  status: RunStatus;
  agent: AgentRef;
  repository: RepositoryRef;
  pull_request: PullRequestRef | null;
  ref: string | null;
  /** The agent's config as JSON text (see AgentDoc.config_json). */
  config_json: string;
  queued_by: string | null;
  queued_at: string;
  claimed_by: string | null;
  started_at: string | null;
  finished_at: string | null;
  duration_ms: number | null;
  issues_found: number | null;
  results: FindingCounts | null;
  summary: string | null;
  error: { code: string | null; message: string } | null;
  cancelled_by: string | null;
  cancel_reason: string | null;
  updated_at: string;
}

export interface FindingDoc extends Finding {
  [key: string]: unknown;
  /** `{run_id}:{seq}` */
  id: string;
  run_id: string;
  account_id: string;
  /** Position in the runner's report, from 0. */
  seq: number;
}

export const RUNS_PROJECTION = 'runs';
export const RUNS_COLLECTION = 'runs';
export const RUN_FINDINGS_COLLECTION = 'run_findings';

export const findingDocId = (runId: string, seq: number) => `${runId}:${String(seq).padStart(5, '0')}`;

export const runsProjection: ProjectionDefinition = {
  name: RUNS_PROJECTION,
  version: 2,
  eventTypes: RUN_EVENT_TYPES,
  collections: [
    {
      name: RUNS_COLLECTION,
      indexes: [
        {
          fields: [
            ['account_id', 1],
            ['queued_at', -1],
          ],
        },
        {
          fields: [
            ['account_id', 1],
            ['status', 1],
            ['queued_at', -1],
          ],
        },
        {
          fields: [
            ['account_id', 1],
            ['agent.id', 1],
            ['queued_at', -1],
          ],
        },
        {
          fields: [
            ['account_id', 1],
            ['repository.id', 1],
            ['queued_at', -1],
          ],
        },
        // Claims take the oldest queued run first.
        {
          fields: [
            ['account_id', 1],
            ['status', 1],
            ['queued_at', 1],
          ],
        },
        // The lease sweeper: running runs by claim time, across accounts.
        {
          fields: [
            ['status', 1],
            ['started_at', 1],
          ],
        },
      ],
    },
    {
      name: RUN_FINDINGS_COLLECTION,
      indexes: [
        {
          fields: [
            ['run_id', 1],
            ['seq', 1],
          ],
        },
        {
          fields: [
            ['run_id', 1],
            ['level', 1],
            ['seq', 1],
          ],
        },
      ],
    },
  ],
  async handle(raw: RecordedEvent, ctx) {
    const event = raw as unknown as RunEvent;
    if (event.type === 'RunQueued') {
      const d = event.data;
      const doc: RunDoc = {
        id: d.run_id,
        account_id: d.account_id,
        status: 'queued',
        agent: d.agent,
        repository: d.repository,
        pull_request: d.pull_request,
        ref: d.ref,
        config_json: JSON.stringify(d.config),
        queued_by: d.queued_by,
        queued_at: d.queued_at,
        claimed_by: null,
        started_at: null,
        finished_at: null,
        duration_ms: null,
        issues_found: null,
        results: null,
        summary: null,
        error: null,
        cancelled_by: null,
        cancel_reason: null,
        updated_at: d.queued_at,
      };
      ctx.upsert(RUNS_COLLECTION, doc);
      return;
    }
    const doc = await ctx.get<RunDoc>(RUNS_COLLECTION, event.data.run_id);
    if (!doc) return;
    switch (event.type) {
      case 'RunClaimed':
        ctx.upsert(RUNS_COLLECTION, {
          ...doc,
          status: 'running',
          claimed_by: event.data.claimed_by,
          started_at: event.data.started_at,
          updated_at: event.data.started_at,
        });
        return;
      case 'RunSucceeded': {
        const d = event.data;
        ctx.upsert(RUNS_COLLECTION, {
          ...doc,
          status: 'success',
          started_at: d.started_at,
          finished_at: d.finished_at,
          duration_ms: d.duration_ms,
          issues_found: d.issues_found,
          results: d.results,
          summary: d.summary,
          updated_at: d.finished_at,
        });
        d.findings.forEach((f, seq) => {
          const finding: FindingDoc = {
            id: findingDocId(d.run_id, seq),
            run_id: d.run_id,
            account_id: d.account_id,
            seq,
            level: f.level as FindingLevel,
            file: f.file,
            line: f.line,
            message: f.message,
            rule: f.rule,
          };
          ctx.upsert(RUN_FINDINGS_COLLECTION, finding);
        });
        return;
      }
      case 'RunIssuesFound':
        return;
      case 'RunFailed': {
        const d = event.data;
        ctx.upsert(RUNS_COLLECTION, {
          ...doc,
          status: 'failed',
          started_at: d.started_at,
          finished_at: d.finished_at,
          duration_ms: d.duration_ms,
          error: d.error,
          updated_at: d.finished_at,
        });
        return;
      }
      case 'RunCancelled': {
        const d = event.data;
        ctx.upsert(RUNS_COLLECTION, {
          ...doc,
          status: 'cancelled',
          finished_at: d.cancelled_at,
          cancelled_by: d.cancelled_by,
          cancel_reason: d.reason,
          updated_at: d.cancelled_at,
        });
        return;
      }
    }
  },
};
