import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fold } from '#kernel';
import { deciderSpec } from '#kernel/testing';
import { type AttemptOutcome, type DeliveryCommand, deliveryDecider } from './delivery.decider.js';
import type { DeliveryAttemptData, DeliveryEvent } from './delivery.events.js';

const spec = deciderSpec(deliveryDecider);
const delivery = {
  deliveryId: 'del_1',
  webhookId: 'wh_1',
  channel: 'platform',
  eventId: 'evt_1',
  eventType: 'agent.completed',
};
const fail500: AttemptOutcome = {
  statusCode: 500,
  durationMs: 12.4,
  error: null,
  responseBody: 'boom',
  succeeded: false,
};
const ok: AttemptOutcome = { statusCode: 200, durationMs: 3, error: null, responseBody: 'ok', succeeded: true };
const at = (min: number) => new Date(Date.UTC(2026, 0, 1, 0, min));
const attempt = (
  outcome: AttemptOutcome,
  min: number,
  kind: 'automatic' | 'manual' = 'automatic',
  requestId: string | null = null,
): DeliveryCommand => ({
  type: 'RecordAttempt',
  delivery,
  kind,
  requestId,
  startedAt: at(min),
  completedAt: at(min),
  outcome,
});

/** The attempt with the rank its sender leased. */
const ranked = (command: DeliveryCommand, automaticRank: number): DeliveryCommand =>
  ({ ...command, automaticRank }) as DeliveryCommand;

/** Records the attempts one after another, as the dispatcher does. */
function history(commands: DeliveryCommand[]): DeliveryEvent[] {
  const events: DeliveryEvent[] = [];
  for (const c of commands) events.push(...deliveryDecider.decide(c, fold(deliveryDecider, events)));
  return events;
}
const data = (e: DeliveryEvent) => e.data as DeliveryAttemptData;

describe('delivery decider', () => {
  it('schedules the retries at +1, +5, +30 and +120 minutes after each failure, then gives up (D12)', () => {
    const events = history([
      attempt(fail500, 0),
      attempt(fail500, 1),
      attempt(fail500, 6),
      attempt(fail500, 36),
      attempt(fail500, 156),
    ]);
    assert.deepEqual(
      events.map((e) => data(e).next_attempt_at),
      [at(1).toISOString(), at(6).toISOString(), at(36).toISOString(), at(156).toISOString(), null],
    );
    assert.deepEqual(
      events.map((e) => data(e).automatic),
      [1, 2, 3, 4, 5],
    );
    assert.deepEqual(
      events.map((e) => data(e).final),
      [null, null, null, null, 'exhausted'],
    );
  });

  it('a retry scale (SVC_WEBHOOK_RETRY_SCALE, tests) shrinks every delay alike; the attempts count the same', () => {
    const scaled = (min: number): DeliveryCommand => ({
      type: 'RecordAttempt',
      delivery,
      kind: 'automatic',
      startedAt: at(min),
      completedAt: at(min),
      outcome: fail500,
      retryScale: 0.001,
    });
    const events = history([scaled(0), scaled(0), scaled(0), scaled(0), scaled(0)]);
    const ms = (n: number) => new Date(at(0).getTime() + n).toISOString();
    assert.deepEqual(
      events.map((e) => data(e).next_attempt_at),
      [ms(60), ms(300), ms(1800), ms(7200), null],
    );
    assert.deepEqual(
      events.map((e) => data(e).final),
      [null, null, null, null, 'exhausted'],
    );
  });

  it('records status, duration, error and the body it was given', () => {
    spec
      .given([])
      .when(attempt(fail500, 0))
      .then([
        {
          type: 'WebhookDeliveryAttempted',
          data: {
            delivery_id: 'del_1',
            webhook_id: 'wh_1',
            channel: 'platform',
            event_id: 'evt_1',
            event_type: 'agent.completed',
            number: 1,
            automatic: 1,
            manual: false,
            request_id: null,
            started_at: at(0).toISOString(),
            duration_ms: 12,
            status_code: 500,
            error: null,
            response_body: 'boom',
            succeeded: false,
            next_attempt_at: at(1).toISOString(),
            final: null,
          },
        },
      ]);
  });

  it('an attempt recorded already (its sender outlived its lease, ADR 0070) is not recorded twice', () => {
    const first = history([attempt(fail500, 0)]);
    spec
      .given(first)
      .when(ranked(attempt(fail500, 0), 1))
      .then([]);
    assert.equal(deliveryDecider.decide(ranked(attempt(fail500, 1), 2), fold(deliveryDecider, first)).length, 1);
    // A redelivery request answered once.
    const requested = deliveryDecider.decide(
      { type: 'RequestRedelivery', delivery, requestId: 'r1', now: at(2) },
      fold(deliveryDecider, first),
    );
    const manual = attempt(ok, 3, 'manual', 'r1');
    const answered = [...first, ...requested];
    answered.push(...deliveryDecider.decide(manual, fold(deliveryDecider, answered)));
    assert.equal(answered.length, 3);
    spec.given(answered).when(manual).then([]);
  });

  it('410 Gone is final at once', () => {
    const [e] = history([attempt({ ...fail500, statusCode: 410 }, 0)]);
    assert.equal(data(e!).final, 'gone');
    assert.equal(data(e!).next_attempt_at, null);
  });

  it('a success schedules nothing', () => {
    const [, second] = history([attempt(fail500, 0), attempt(ok, 1)]);
    assert.equal(data(second!).succeeded, true);
    assert.equal(data(second!).next_attempt_at, null);
    assert.equal(data(second!).final, null);
  });

  it('manual attempts never count toward disabling', () => {
    const requested: DeliveryEvent = {
      type: 'WebhookRedeliveryRequested',
      data: {
        delivery_id: 'del_1',
        webhook_id: 'wh_1',
        channel: 'platform',
        event_id: 'evt_1',
        event_type: 'agent.completed',
        request_id: 'req_1',
        requested_at: at(2).toISOString(),
      },
    };
    const auto = history([attempt(fail500, 0), attempt(fail500, 1), attempt(fail500, 6), attempt(fail500, 36)]);
    const events = [...auto, requested];
    const manual = deliveryDecider.decide(attempt(fail500, 40, 'manual', 'req_1'), fold(deliveryDecider, events));
    assert.equal(data(manual[0]!).automatic, null);
    assert.equal(data(manual[0]!).number, 5);
    assert.equal(data(manual[0]!).final, null);
    assert.equal(data(manual[0]!).next_attempt_at, null);
    // The fifth automatic attempt is still the one that gives up.
    const fifth = deliveryDecider.decide(attempt(fail500, 156), fold(deliveryDecider, [...events, ...manual]));
    assert.equal(data(fifth[0]!).automatic, 5);
    assert.equal(data(fifth[0]!).final, 'exhausted');
  });

  it('one redelivery request at a time', () => {
    const request = (id: string): DeliveryCommand => ({
      type: 'RequestRedelivery',
      delivery,
      requestId: id,
      now: at(3),
    });
    const first = deliveryDecider.decide(request('req_1'), deliveryDecider.initialState);
    assert.equal(first.length, 1);
    spec.given(first).when(request('req_2')).then([]);
    const answered = deliveryDecider.decide(attempt(ok, 4, 'manual', 'req_1'), fold(deliveryDecider, first));
    assert.equal(answered.length, 1);
    spec
      .given([...first, ...answered])
      .when(request('req_2'))
      .then([
        {
          type: 'WebhookRedeliveryRequested',
          data: {
            delivery_id: 'del_1',
            webhook_id: 'wh_1',
            channel: 'platform',
            event_id: 'evt_1',
            event_type: 'agent.completed',
            request_id: 'req_2',
            requested_at: at(3).toISOString(),
          },
        },
      ]);
  });

  describe('holds (the owner cannot pay)', () => {
    const hold = (kind: 'automatic' | 'manual' = 'automatic', requestId: string | null = null): DeliveryCommand => ({
      type: 'HoldDelivery',
      delivery,
      ownerId: 'tn_1',
      reason: 'insufficient_credits',
      kind,
      requestId,
      now: at(2),
    });

    it('given a pending delivery, when held, then it records the hold and the schedule does not move', () => {
      const failed = history([attempt(fail500, 0)]);
      spec
        .given(failed)
        .when(hold())
        .then([
          {
            type: 'WebhookDeliveryHeld',
            data: {
              delivery_id: 'del_1',
              webhook_id: 'wh_1',
              channel: 'platform',
              event_id: 'evt_1',
              event_type: 'agent.completed',
              owner_id: 'tn_1',
              reason: 'insufficient_credits',
              manual: false,
              request_id: null,
              held_at: at(2).toISOString(),
            },
          },
        ]);
      // The next attempt after the hold is the second automatic one, not the third.
      const held = [...failed, ...deliveryDecider.decide(hold(), fold(deliveryDecider, failed))];
      const next = deliveryDecider.decide(attempt(fail500, 3), fold(deliveryDecider, held));
      assert.equal(data(next[0]!).automatic, 2);
    });

    it('given a delivery that succeeded or gave up, when held automatically, then nothing', () => {
      spec
        .given(history([attempt(ok, 0)]))
        .when(hold())
        .then([]);
      spec
        .given(
          history([
            attempt(fail500, 0),
            attempt(fail500, 1),
            attempt(fail500, 6),
            attempt(fail500, 36),
            attempt(fail500, 156),
          ]),
        )
        .when(hold())
        .then([]);
    });

    it('given no redelivery asked for, when a manual push is held, then nothing', () => {
      spec
        .given(history([attempt(ok, 0)]))
        .when(hold('manual', 'req_1'))
        .then([]);
    });
  });
});
