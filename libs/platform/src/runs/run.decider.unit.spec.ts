import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError, fold } from '#kernel';
import { deciderSpec } from '#kernel/testing';
import { MAX_FINDINGS, RUN_TIMEOUT_CODE, type RunCommand, runDecider } from './run.decider.js';
import { type Finding, ISSUES_IN_EVENT, type RunEvent, type RunEventBase, type RunStatus } from './run.events.js';

const spec = deciderSpec(runDecider);
const t0 = new Date('2026-03-01T10:00:00.000Z');
const t1 = new Date('2026-03-01T10:00:05.000Z');
const t2 = new Date('2026-03-01T10:01:07.250Z');
const code = (c: string, status?: RunStatus) => (e: unknown) =>
  e instanceof AppError &&
  e.code === c &&
  (status === undefined || e.extra.run_status === status) &&
  e.kind === (c === 'RUN_NOT_FOUND' ? 'not_found' : c === 'VALIDATION_FAILED' ? 'invalid' : 'conflict');

const base: RunEventBase = {
  run_id: 'run_1',
  account_id: 'acct_1',
  agent: { id: 'agt_1', name: 'Reviewer', template: 'code-review' },
  repository: { id: 'repo_1', name: 'acme/web' },
  pull_request: { number: 42, title: 'Fix login', url: 'https://github.com/acme/web/pull/42' },
};
const queue: RunCommand = {
  type: 'QueueRun',
  runId: 'run_1',
  accountId: 'acct_1',
  agent: base.agent,
  config: { strict: true },
  repository: base.repository,
  pullRequest: base.pull_request,
  ref: 'main',
  by: 'key_user',
  now: t0,
};
const claim = (by = 'key_runner', accountId = 'acct_1'): RunCommand => ({
  type: 'ClaimRun',
  runId: 'run_1',
  accountId,
  by,
  now: t1,
});
const complete = (findings: Finding[] = [], by = 'key_runner'): RunCommand => ({
  type: 'CompleteRun',
  runId: 'run_1',
  accountId: 'acct_1',
  by,
  findings,
  summary: 'done',
  now: t2,
});
const fail = (by = 'key_runner'): RunCommand => ({
  type: 'FailRun',
  runId: 'run_1',
  accountId: 'acct_1',
  by,
  error: { code: 'timeout', message: 'took too long' },
  now: t2,
});
const cancel: RunCommand = {
  type: 'CancelRun',
  runId: 'run_1',
  accountId: 'acct_1',
  by: 'key_user',
  reason: 'not needed',
  now: t2,
};

const queued: RunEvent = {
  type: 'RunQueued',
  data: { ...base, config: { strict: true }, ref: 'main', queued_by: 'key_user', queued_at: t0.toISOString() },
};
const claimed: RunEvent = {
  type: 'RunClaimed',
  data: { ...base, claimed_by: 'key_runner', started_at: t1.toISOString() },
};
const succeeded: RunEvent = {
  type: 'RunSucceeded',
  data: {
    ...base,
    started_at: t1.toISOString(),
    finished_at: t2.toISOString(),
    duration_ms: 62_250,
    issues_found: 0,
    results: { errors: 0, warnings: 0, info: 0 },
    summary: 'done',
    findings: [],
  },
};
const failed: RunEvent = {
  type: 'RunFailed',
  data: {
    ...base,
    started_at: t1.toISOString(),
    finished_at: t2.toISOString(),
    duration_ms: 62_250,
    error: { code: 'timeout', message: 'took too long' },
  },
};
const cancelled = (previous: 'queued' | 'running'): RunEvent => ({
  type: 'RunCancelled',
  data: {
    ...base,
    previous_status: previous,
    reason: 'not needed',
    cancelled_by: 'key_user',
    cancelled_at: t2.toISOString(),
  },
});

const finding = (level: Finding['level'], i = 0): Finding => ({
  level,
  file: `src/f${i}.ts`,
  line: i + 1,
  message: `problem ${i}`,
  rule: 'r1',
});

/** Histories that leave the run in each state. */
const histories: Record<RunStatus, RunEvent[]> = {
  queued: [queued],
  running: [queued, claimed],
  success: [queued, claimed, succeeded],
  failed: [queued, claimed, failed],
  cancelled: [queued, cancelled('queued')],
};

describe('run decider (state machine)', () => {
  it('the histories reach the states they are named after', () => {
    for (const [status, events] of Object.entries(histories)) assert.equal(fold(runDecider, events).status, status);
  });

  it('queues a run (absent → queued), copying agent, repository and pull request', () =>
    spec.given([]).when(queue).then([queued]));

  it('claims a queued run (queued → running): agent.started', () => spec.given([queued]).when(claim()).then([claimed]));

  it('completes a running run (running → success) with the duration from the claim, by the injected clock', () =>
    spec.given([queued, claimed]).when(complete()).then([succeeded]));

  it('completion with findings also records RunIssuesFound, counted by level', () => {
    const findings = [finding('error', 0), finding('warning', 1), finding('warning', 2), finding('info', 3)];
    const results = { errors: 1, warnings: 2, info: 1 };
    spec
      .given([queued, claimed])
      .when(complete(findings))
      .then([
        {
          type: 'RunSucceeded',
          data: {
            ...base,
            started_at: t1.toISOString(),
            finished_at: t2.toISOString(),
            duration_ms: 62_250,
            issues_found: 4,
            results,
            summary: 'done',
            findings,
          },
        },
        {
          type: 'RunIssuesFound',
          data: {
            ...base,
            issues_found: 4,
            results,
            issues: findings,
            issues_truncated: false,
            found_at: t2.toISOString(),
          },
        },
      ]);
  });

  it('agent.issues_found carries the first 100 findings and says it truncated', () => {
    const findings = Array.from({ length: ISSUES_IN_EVENT + 5 }, (_, i) => finding('info', i));
    const events = runDecider.decide(complete(findings), fold(runDecider, [queued, claimed]));
    const issues = events[1];
    assert.equal(issues?.type, 'RunIssuesFound');
    if (issues?.type !== 'RunIssuesFound') return;
    assert.equal(issues.data.issues.length, ISSUES_IN_EVENT);
    assert.equal(issues.data.issues_truncated, true);
    assert.equal(issues.data.issues_found, ISSUES_IN_EVENT + 5);
  });

  it('fails a running run (running → failed): agent.failed', () =>
    spec.given([queued, claimed]).when(fail()).then([failed]));

  it('cancels a queued or a running run', () => {
    spec
      .given([queued])
      .when(cancel)
      .then([cancelled('queued')]);
    spec
      .given([queued, claimed])
      .when(cancel)
      .then([cancelled('running')]);
  });

  it('refuses every transition the machine does not have (409 INVALID_RUN_TRANSITION with run_status)', () => {
    for (const status of ['running', 'success', 'failed', 'cancelled'] as const)
      spec.given(histories[status]).when(claim()).thenThrows(code('INVALID_RUN_TRANSITION', status));
    for (const status of ['queued', 'success', 'failed', 'cancelled'] as const) {
      spec.given(histories[status]).when(complete()).thenThrows(code('INVALID_RUN_TRANSITION', status));
      spec.given(histories[status]).when(fail()).thenThrows(code('INVALID_RUN_TRANSITION', status));
    }
    for (const status of ['success', 'failed', 'cancelled'] as const)
      spec.given(histories[status]).when(cancel).thenThrows(code('INVALID_RUN_TRANSITION', status));
  });

  it('a second claim loses (what a concurrent claimer sees after re-reading)', () =>
    spec.given([queued, claimed]).when(claim('key_other')).thenThrows(code('INVALID_RUN_TRANSITION', 'running')));

  it('only the claiming credential reports the outcome (409 RUN_CLAIMED_BY_ANOTHER_RUNNER)', () => {
    spec
      .given([queued, claimed])
      .when(complete([], 'key_other'))
      .thenThrows(code('RUN_CLAIMED_BY_ANOTHER_RUNNER', 'running'));
    spec.given([queued, claimed]).when(fail('key_other')).thenThrows(code('RUN_CLAIMED_BY_ANOTHER_RUNNER', 'running'));
  });

  it("unknown runs and other accounts' runs are 404; queueing twice is 409", () => {
    for (const command of [claim(), complete(), fail(), cancel])
      spec.given([]).when(command).thenThrows(code('RUN_NOT_FOUND'));
    spec.given([queued]).when(claim('key_runner', 'acct_2')).thenThrows(code('RUN_NOT_FOUND'));
    spec
      .given([queued])
      .when(queue)
      .thenThrows((e) => e instanceof AppError && e.code === 'RUN_EXISTS');
  });

  it(`refuses more than ${MAX_FINDINGS} findings`, () => {
    spec
      .given([queued, claimed])
      .when(complete(Array.from({ length: MAX_FINDINGS + 1 }, (_, i) => finding('info', i))))
      .thenThrows(code('VALIDATION_FAILED'));
  });

  describe('the runner lease (TimeOutRun)', () => {
    const HOUR = 3_600_000;
    const timeOut = (at: Date, limitMs = HOUR): RunCommand => ({
      type: 'TimeOutRun',
      runId: 'run_1',
      accountId: 'acct_1',
      limitMs,
      now: at,
    });
    const after = (ms: number) => new Date(t1.getTime() + ms);

    it('fails a run still running when its lease ran out: agent.failed with code timeout', () =>
      spec
        .given([queued, claimed])
        .when(timeOut(after(HOUR)))
        .then([
          {
            type: 'RunFailed',
            data: {
              ...base,
              started_at: t1.toISOString(),
              finished_at: after(HOUR).toISOString(),
              duration_ms: HOUR,
              error: {
                code: RUN_TIMEOUT_CODE,
                message: 'The runner reported no result within 60 minutes of claiming the run.',
              },
            },
          },
        ]));

    it('does nothing before the lease runs out, nor for a run that is not running (sweepers may repeat it)', () => {
      spec
        .given([queued, claimed])
        .when(timeOut(after(HOUR - 1)))
        .then([]);
      for (const status of ['queued', 'success', 'failed', 'cancelled'] as const)
        spec
          .given(histories[status])
          .when(timeOut(after(10 * HOUR)))
          .then([]);
    });

    it('after a time-out the runner can no longer report (409)', () => {
      const timedOut = runDecider.decide(timeOut(after(HOUR)), fold(runDecider, [queued, claimed]));
      spec
        .given([queued, claimed, ...timedOut])
        .when(complete())
        .thenThrows(code('INVALID_RUN_TRANSITION', 'failed'));
    });
  });
});
