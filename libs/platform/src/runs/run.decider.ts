import { AppError, assertNever, type Decider, Errors } from '#kernel';
import type { AgentRef } from '../agents/agent.events.js';
import type { RepositoryRef } from '../repositories/repository.events.js';
import {
  countFindings,
  type Finding,
  ISSUES_IN_EVENT,
  type PullRequestRef,
  type RunEvent,
  type RunEventBase,
  type RunStatus,
} from './run.events.js';

/** Findings one completion may report at most. */
export const MAX_FINDINGS = 1000;

export type RunCommand =
  | {
      type: 'QueueRun';
      runId: string;
      accountId: string;
      agent: AgentRef;
      config: Record<string, unknown>;
      repository: RepositoryRef;
      pullRequest: PullRequestRef | null;
      ref: string | null;
      by: string | null;
      now: Date;
    }
  /** `by`: the runner's credential; only it may report the outcome. */
  | { type: 'ClaimRun'; runId: string; accountId: string; by: string; now: Date }
  | {
      type: 'CompleteRun';
      runId: string;
      accountId: string;
      by: string;
      findings: Finding[];
      summary: string | null;
      now: Date;
    }
  | {
      type: 'FailRun';
      runId: string;
      accountId: string;
      by: string;
      error: { code: string | null; message: string };
      now: Date;
    }
  | { type: 'CancelRun'; runId: string; accountId: string; by: string | null; reason: string | null; now: Date }
  /**
   * The runner's lease ran out: a run still running `limitMs` after its claim fails with code
   * `timeout`. Anything else (finished meanwhile, claimed later than that) is a no-op, so sweepers
   * may repeat it.
   */
  | { type: 'TimeOutRun'; runId: string; accountId: string; limitMs: number; now: Date };

/** The `error.code` of a run failed by its lease running out. */
export const RUN_TIMEOUT_CODE = 'timeout';

export type RunState =
  | { status: 'absent' }
  | {
      status: RunStatus;
      base: RunEventBase;
      claimedBy: string | null;
      startedAt: string | null;
    };

export const runNotFound = () => Errors.notFound('No such run.', 'RUN_NOT_FOUND');

/** 409 for a move the state machine does not have; `run_status` tells the client where the run is. */
export function invalidRunTransition(status: RunStatus, action: string, allowedFrom: RunStatus[]): AppError {
  return Errors.conflict(
    `The run is ${status}; only a ${allowedFrom.join(' or ')} run can be ${action}.`,
    'INVALID_RUN_TRANSITION',
    { run_status: status },
  );
}

function owned(state: RunState, accountId: string): Exclude<RunState, { status: 'absent' }> {
  if (state.status === 'absent' || state.base.account_id !== accountId) throw runNotFound();
  return state;
}

function requireClaimer(state: Exclude<RunState, { status: 'absent' }>, by: string, action: string): void {
  if (state.status !== 'running') throw invalidRunTransition(state.status, action, ['running']);
  if (state.claimedBy !== by) {
    throw Errors.conflict(
      'The run was claimed by another runner; only the credential that claimed it reports its outcome.',
      'RUN_CLAIMED_BY_ANOTHER_RUNNER',
      {
        run_status: state.status,
      },
    );
  }
}

const durationMs = (from: string, to: Date) => Math.max(0, to.getTime() - Date.parse(from));

export const runDecider: Decider<RunCommand, RunEvent, RunState> = {
  initialState: { status: 'absent' },

  evolve(state, event) {
    switch (event.type) {
      case 'RunQueued': {
        const d = event.data;
        const base: RunEventBase = {
          run_id: d.run_id,
          account_id: d.account_id,
          agent: d.agent,
          repository: d.repository,
          pull_request: d.pull_request,
        };
        return { status: 'queued', base, claimedBy: null, startedAt: null };
      }
      case 'RunClaimed':
        return state.status === 'absent'
          ? state
          : { ...state, status: 'running', claimedBy: event.data.claimed_by, startedAt: event.data.started_at };
      case 'RunSucceeded':
        return state.status === 'absent' ? state : { ...state, status: 'success' };
      case 'RunIssuesFound':
        return state;
      case 'RunFailed':
        return state.status === 'absent' ? state : { ...state, status: 'failed' };
      case 'RunCancelled':
        return state.status === 'absent' ? state : { ...state, status: 'cancelled' };
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'QueueRun': {
        if (state.status !== 'absent') throw Errors.conflict('The run exists already.', 'RUN_EXISTS');
        return [
          {
            type: 'RunQueued',
            data: {
              run_id: command.runId,
              account_id: command.accountId,
              agent: command.agent,
              repository: command.repository,
              pull_request: command.pullRequest,
              config: command.config,
              ref: command.ref,
              queued_by: command.by,
              queued_at: command.now.toISOString(),
            },
          },
        ];
      }
      case 'ClaimRun': {
        const run = owned(state, command.accountId);
        if (run.status !== 'queued') throw invalidRunTransition(run.status, 'claimed', ['queued']);
        return [
          { type: 'RunClaimed', data: { ...run.base, claimed_by: command.by, started_at: command.now.toISOString() } },
        ];
      }
      case 'CompleteRun': {
        const run = owned(state, command.accountId);
        requireClaimer(run, command.by, 'completed');
        if (command.findings.length > MAX_FINDINGS)
          throw Errors.validation([{ path: 'body.findings', message: `at most ${MAX_FINDINGS} findings` }]);
        const startedAt = run.startedAt!;
        const results = countFindings(command.findings);
        const issuesFound = command.findings.length;
        const at = command.now.toISOString();
        const events: RunEvent[] = [
          {
            type: 'RunSucceeded',
            data: {
              ...run.base,
              started_at: startedAt,
              finished_at: at,
              duration_ms: durationMs(startedAt, command.now),
              issues_found: issuesFound,
              results,
              summary: command.summary,
              findings: command.findings,
            },
          },
        ];
        if (issuesFound > 0) {
          events.push({
            type: 'RunIssuesFound',
            data: {
              ...run.base,
              issues_found: issuesFound,
              results,
              issues: command.findings.slice(0, ISSUES_IN_EVENT),
              issues_truncated: issuesFound > ISSUES_IN_EVENT,
              found_at: at,
            },
          });
        }
        return events;
      }
      case 'FailRun': {
        const run = owned(state, command.accountId);
        requireClaimer(run, command.by, 'failed');
        const startedAt = run.startedAt!;
        return [
          {
            type: 'RunFailed',
            data: {
              ...run.base,
              started_at: startedAt,
              finished_at: command.now.toISOString(),
              duration_ms: durationMs(startedAt, command.now),
              error: command.error,
            },
          },
        ];
      }
      case 'CancelRun': {
        const run = owned(state, command.accountId);
        if (run.status !== 'queued' && run.status !== 'running')
          throw invalidRunTransition(run.status, 'cancelled', ['queued', 'running']);
        return [
          {
            type: 'RunCancelled',
            data: {
              ...run.base,
              previous_status: run.status,
              reason: command.reason,
              cancelled_by: command.by,
              cancelled_at: command.now.toISOString(),
            },
          },
        ];
      }
      case 'TimeOutRun': {
        const run = owned(state, command.accountId);
        if (run.status !== 'running' || run.startedAt === null) return [];
        if (durationMs(run.startedAt, command.now) < command.limitMs) return [];
        const minutes = Math.round((command.limitMs / 60_000) * 100) / 100;
        return [
          {
            type: 'RunFailed',
            data: {
              ...run.base,
              started_at: run.startedAt,
              finished_at: command.now.toISOString(),
              duration_ms: durationMs(run.startedAt, command.now),
              error: {
                code: RUN_TIMEOUT_CODE,
                message: `The runner reported no result within ${minutes} minute${minutes === 1 ? '' : 's'} of claiming the run.`,
              },
            },
          },
        ];
      }
      default:
        return assertNever(command);
    }
  },
};
