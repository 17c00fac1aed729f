import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { FakeClock } from '#kernel';
import type { EventStore, RecordedEvent } from '#eventstore';
import type { WebhookChannel } from '../engine/channel.js';
import type { DeliveryDoc, WebhookDoc } from '../engine/webhook-docs.js';
import type { WebhookSender } from '../sending/webhook-sender.js';
import type { AttemptRecorder } from './attempt.recorder.js';
import { pendingDelivery } from '../testing/delivery-doc.fixture.js';
import { AttemptRunner } from './attempt.runner.js';
import type { DeliveryInputs } from './delivery-inputs.reader.js';
import { type AttemptOutcome, OUTCOME_UNKNOWN } from '../engine/delivery.decider.js';
import type { DeliveryLeases } from './leases.js';
import { SqliteDeliveryLeases } from './sqlite-leases.js';
import type { WebhookDisabler } from './webhook.disabler.js';

/** Attempt 1 recorded (stream at revision 0); attempt 2 due. */
const queued: DeliveryDoc = pendingDelivery({
  attempt_count: 1,
  automatic_attempts: 1,
  next_attempt_at: '2026-01-01T00:00:01.000Z',
  dispatch_at: '2026-01-01T00:00:01.000Z',
  revision: 0,
});
const activeAgain = { id: 'wh_1', status: 'active', url: 'http://127.0.0.1:9/x', secret_id: 's' } as WebhookDoc;

/**
 * An AttemptRunner around fakes: the read model's delivery document as it is now (`current`),
 * the webhook as the read model shows it, a sender that counts what it is asked to send, and a
 * recorder that notes what it records (or fails, as a store that cannot write).
 */
function runner(
  current: DeliveryDoc | null,
  options: {
    leases?: DeliveryLeases;
    recordFails?: boolean;
    clock?: FakeClock;
    /** The delivery's stream as stored (its recorded attempts). */
    stream?: RecordedEvent[];
    /** The hook settling an attempt fails (a store that cannot write, say). */
    settleFails?: boolean;
    /** The webhook as the read model shows it (default: active). */
    webhook?: WebhookDoc | null;
  } = {},
) {
  const sent: string[] = [];
  const recorded: Array<{ startedAt: Date; outcome: AttemptOutcome }> = [];
  const settled: AttemptOutcome[] = [];
  const sender = {
    send: async () => {
      sent.push('x');
      return { statusCode: 200, durationMs: 1, error: null, responseBody: 'ok', succeeded: true };
    },
  } as unknown as WebhookSender;
  const inputs = {
    webhook: async () => (options.webhook === undefined ? activeAgain : options.webhook),
    secretWaiting: () => false,
    body: async () => Buffer.from('{}'),
    secret: async () => 'secret',
  } as unknown as DeliveryInputs;
  const recorder = {
    record: async (_doc: DeliveryDoc, _revision: number, attempt: { startedAt: Date; outcome: AttemptOutcome }) => {
      if (options.recordFails) throw new Error('SQLITE_FULL: database or disk is full');
      recorded.push(attempt);
      return { data: { final: null }, revision: 1, position: 10 };
    },
  } as unknown as AttemptRecorder;
  const events = {
    streamRevision: async () => 0,
    readStream: async function* () {
      yield* options.stream ?? [];
    },
  } as unknown as EventStore;
  const attempts = new AttemptRunner({
    channel: { name: 'platform', ownerKind: 'account' } as unknown as WebhookChannel,
    events,
    clock: options.clock ?? new FakeClock('2026-01-01T00:00:05.000Z'),
    sender,
    leases: options.leases ?? new SqliteDeliveryLeases({ path: ':memory:' }),
    hooks: {
      afterAttempt: async (_context, outcome) => {
        if (options.settleFails) throw new Error('SQLITE_FULL: database or disk is full');
        settled.push(outcome);
      },
    },
    leaseMs: 60_000,
    inputs,
    recorder,
    disabler: { disabledHere: () => false } as unknown as WebhookDisabler,
    logger: { warn: () => undefined },
    notes: { recorded: () => undefined, appended: () => undefined, attempted: () => undefined },
    deliveries: { get: async () => current },
  });
  return {
    sent,
    recorded,
    settled,
    recover: (doc: DeliveryDoc, key: string) => attempts.recover(doc, key),
    run: () =>
      attempts.run(
        queued,
        () => undefined,
        () => false,
      ),
  };
}

describe('AttemptRunner: a queued delivery is checked against the read model before it is sent', () => {
  it('cancelled meanwhile (its webhook disabled, then re-enabled while it waited in the queue): nothing is sent', async () => {
    // Found by `npm run chaos webhooks-flapping`: the webhook reads active again, the delivery's
    // stream did not move (a disable cancels without touching it), yet the delivery is cancelled.
    const r = runner({ ...queued, state: 'cancelled', dispatch_at: null });
    await r.run();
    assert.equal(r.sent.length, 0);
  });

  it('gone from the read model, or at another revision: nothing is sent', async () => {
    for (const current of [null, { ...queued, revision: 1 }]) {
      const r = runner(current);
      await r.run();
      assert.equal(r.sent.length, 0);
    }
  });

  it('still pending at the same revision: sent once', async () => {
    const r = runner({ ...queued });
    await r.run();
    assert.equal(r.sent.length, 1);
  });
});

describe('AttemptRunner: an attempt sent but never recorded is not sent again (ADR 0070)', () => {
  let dir: string;
  let opened: SqliteDeliveryLeases[];
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'attempt-runner-'));
    opened = [];
  });
  afterEach(async () => {
    for (const l of opened) await l.close();
    await rm(dir, { recursive: true, force: true });
  });
  /** Lease stores on one file, on a wall clock the test moves: worker processes of one data directory. */
  let now = 1_800_000_000_000;
  const leases = () => {
    const l = new SqliteDeliveryLeases({ path: join(dir, 'webhook-leases.sqlite') }, () => now);
    opened.push(l);
    return l;
  };
  const sendingAt = new Date('2026-01-01T00:00:04.000Z');
  /** A holder that claimed `key` to send at `sendingAt` and was SIGKILLed: nothing recorded, the lease left to expire. */
  const killedWhileSending = async (key: string) => {
    const killed = leases();
    assert.ok(await killed.claim(key, 60_000, sendingAt));
    await killed.close();
  };

  it('a holder killed after marking the attempt as sending: the next one records it with an unknown outcome', async () => {
    await killedWhileSending('del_1:a2');

    const early = runner({ ...queued }, { leases: leases() });
    await early.run();
    assert.equal(early.recorded.length, 0, 'not before the lease expired');
    now += 60_000;
    const next = runner({ ...queued }, { leases: leases() });
    await next.run();
    assert.equal(next.sent.length, 0, 'never sent twice');
    assert.deepEqual(next.recorded, [
      {
        manual: false,
        startedAt: sendingAt,
        completedAt: new Date('2026-01-01T00:00:05.000Z'),
        outcome: OUTCOME_UNKNOWN,
      },
    ]);
    assert.deepEqual(next.settled, [OUTCOME_UNKNOWN], 'settled as a failure (a metered push is refunded)');
  });

  it('a holder that claimed to send and sent nothing (the read model behind) gives its mark back: the next one sends', async () => {
    const shared = leases();
    const behind = runner({ ...queued, revision: 1 }, { leases: shared });
    await behind.run();
    assert.equal(behind.sent.length, 0);
    now += 60_000;
    assert.deepEqual(await shared.interrupted(10), [], 'no mark left: nothing was sent');
    const next = runner({ ...queued }, { leases: shared });
    await next.run();
    assert.equal(next.sent.length, 1);
    assert.equal(next.recorded[0]?.outcome.succeeded, true);
  });

  it('a lease taken without a mark (a recovery pass) and left: the attempt is sent by the next one', async () => {
    const killed = leases();
    assert.ok(await killed.claim('del_1:a2', 60_000));
    await killed.close();
    now += 60_000;
    const next = runner({ ...queued }, { leases: leases() });
    await next.run();
    assert.equal(next.sent.length, 1);
    assert.equal(next.recorded[0]?.outcome.succeeded, true);
  });

  it('sent, then the store could not record it: after the lease expired the attempt is recorded as unknown, not resent', async () => {
    const shared = leases();
    const failing = runner({ ...queued }, { leases: shared, recordFails: true });
    await assert.rejects(failing.run(), /SQLITE_FULL/);
    assert.equal(failing.sent.length, 1);
    now += 60_000;
    const next = runner({ ...queued }, { leases: shared });
    await next.run();
    assert.equal(next.sent.length, 0);
    assert.equal(next.recorded[0]?.outcome, OUTCOME_UNKNOWN);
    assert.equal(next.recorded[0]?.startedAt.toISOString(), '2026-01-01T00:00:05.000Z', 'the time the request left');
  });

  it('recovered from the list of interrupted leases even after its delivery was cancelled (not due any more)', async () => {
    await killedWhileSending('del_1:a2');
    now += 60_000;
    const shared = leases();
    assert.deepEqual(await shared.interrupted(10), ['del_1:a2']);
    const cancelled = { ...queued, state: 'cancelled' as const, next_attempt_at: null, dispatch_at: null };
    const next = runner(cancelled, { leases: shared });
    await next.run();
    assert.equal(next.recorded.length, 0, 'a cancelled delivery is not due');
    await next.recover(cancelled, 'del_1:a2');
    assert.equal(next.sent.length, 0);
    assert.deepEqual(
      next.recorded.map((r) => [r.startedAt.toISOString(), r.outcome]),
      [[sendingAt.toISOString(), OUTCOME_UNKNOWN]],
    );
    assert.deepEqual(await shared.interrupted(10), [], 'recorded: the mark is gone');
  });

  it('interrupted, then its webhook deleted: nothing recorded or sent, the charge settled as unknown (refunded), the mark gone', async () => {
    await killedWhileSending('del_1:a2');
    now += 60_000;
    const shared = leases();
    const deleted = { ...activeAgain, status: 'deleted' } as WebhookDoc;
    // A delete cancels the webhook's pending deliveries (and any redelivery asked for).
    const cancelled = { ...queued, state: 'cancelled' as const, next_attempt_at: null, dispatch_at: null };
    const failing = runner(cancelled, { leases: shared, webhook: deleted, settleFails: true });
    await assert.rejects(failing.recover(cancelled, 'del_1:a2'), /SQLITE_FULL/);
    assert.deepEqual(await shared.interrupted(10), ['del_1:a2'], 'a failed settle leaves the mark');
    const next = runner(cancelled, { leases: shared, webhook: deleted });
    await next.recover(cancelled, 'del_1:a2');
    assert.equal(next.sent.length + next.recorded.length, 0);
    assert.deepEqual(next.settled, [OUTCOME_UNKNOWN]);
    assert.deepEqual(await shared.interrupted(10), []);
  });

  it('an interrupted redelivery whose request was cancelled meanwhile (webhook deleted): settled as unknown, nothing recorded', async () => {
    await killedWhileSending('del_1:mreq_1');
    now += 60_000;
    const shared = leases();
    // The delete cleared the redelivery request: the attempt is not open, and the stream has no record of it.
    const cancelled = { ...queued, state: 'cancelled' as const, manual_request_id: null, dispatch_at: null };
    const next = runner(cancelled, {
      leases: shared,
      webhook: { ...activeAgain, status: 'deleted' } as WebhookDoc,
      stream: [attempt1],
    });
    await next.recover(cancelled, 'del_1:mreq_1');
    assert.equal(next.sent.length + next.recorded.length, 0);
    assert.deepEqual(next.settled, [OUTCOME_UNKNOWN]);
    assert.deepEqual(await shared.interrupted(10), []);
  });

  /** Attempt 1 of del_1 as stored: a 500. */
  const attempt1 = {
    id: 'e1',
    stream: 'webhookdelivery-del_1',
    revision: 0,
    position: 1,
    type: 'WebhookDeliveryAttempted',
    data: {
      delivery_id: 'del_1',
      automatic: 1,
      manual: false,
      request_id: null,
      status_code: 500,
      duration_ms: 12,
      error: null,
      response_body: 'boom',
      succeeded: false,
    },
    metadata: {},
    created: '2026-01-01T00:00:01.000Z',
  } as unknown as RecordedEvent;
  const outcome1: AttemptOutcome = {
    statusCode: 500,
    durationMs: 12,
    error: null,
    responseBody: 'boom',
    succeeded: false,
  };

  it('an interrupted lease whose attempt is recorded already (killed between record and settling): settled from the record, not recorded again', async () => {
    const shared = leases();
    assert.ok(await shared.claim('del_1:a1', 60_000, new Date('2026-01-01T00:00:00.500Z')));
    now += 60_000;
    // The read model shows attempt 1 recorded: `queued` has automatic_attempts 1.
    const r = runner({ ...queued }, { leases: shared, stream: [attempt1] });
    await r.recover({ ...queued }, 'del_1:a1');
    assert.equal(r.recorded.length, 0);
    assert.deepEqual(r.settled, [outcome1]);
    assert.deepEqual(await shared.interrupted(10), []);
  });

  it('a hook that fails to settle leaves the mark: the recovery settles the recorded attempt once it expired', async () => {
    const shared = leases();
    const failing = runner(
      { ...queued, automatic_attempts: 0, attempt_count: 0 },
      { leases: shared, settleFails: true },
    );
    await failing.run();
    assert.equal(failing.sent.length, 1);
    assert.equal(failing.settled.length, 0);
    assert.deepEqual(await shared.interrupted(10), [], 'not before its lease expired');
    now += 60_000;
    assert.deepEqual(await shared.interrupted(10), ['del_1:a2']);
    // The read model now shows attempt 2 recorded.
    const recordedDoc = { ...queued, automatic_attempts: 2, attempt_count: 2 };
    const attempt2 = {
      ...attempt1,
      revision: 1,
      data: { ...(attempt1.data as object), automatic: 2, status_code: 503, response_body: 'later' },
    } as RecordedEvent;
    const r = runner(recordedDoc, { leases: shared, stream: [attempt1, attempt2] });
    await r.recover(recordedDoc, 'del_1:a2');
    assert.deepEqual(r.settled, [{ ...outcome1, statusCode: 503, responseBody: 'later' }], 'attempt 2, not 1');
    assert.equal(r.sent.length + r.recorded.length, 0);
    assert.deepEqual(await shared.interrupted(10), []);
  });
});
