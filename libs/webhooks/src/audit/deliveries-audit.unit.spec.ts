import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RecordedEvent } from '#eventstore';
import type { WebhookChannel, WebhookEnvelope } from '../engine/channel.js';
import { deliveryIdFor, deliveryIdTime } from '../engine/delivery-id.js';
import { OUTCOME_UNKNOWN_ERROR } from '../engine/delivery.decider.js';
import type { DeliveryAttemptData } from '../engine/delivery.events.js';
import {
  afterAttempt,
  automaticAttemptBreaks,
  deliveriesAuditFilter,
  DeliveriesReplay,
  type DeliverySchedule,
  type WebhookAuditLine,
} from './deliveries-audit.js';

const MIN = 60_000;
const T0 = Date.UTC(2026, 0, 1, 12, 0);
const t = (ms: number) => new Date(T0 + ms).toISOString();

/** A channel of the tests: `Published` events carry the envelope; `Opened`/`Funded` release holds. */
const channel: WebhookChannel = {
  name: 'test',
  ownerKind: 'tenant',
  idPrefix: 'sub',
  eventTypes: ['thing.happened'],
  testEventType: 'webhook.test',
  source: {
    storedEventTypes: ['Published'],
    toEnvelope: (raw) => {
      const d = raw.data as { owner: string; envelope: WebhookEnvelope };
      return { ownerId: d.owner, envelope: d.envelope };
    },
  },
  releases: {
    aliasEventTypes: ['Opened'],
    toAlias: (raw) => ({ alias: (raw.data as { account: string }).account, ownerId: 'tn_1' }),
    releaseEventTypes: ['Funded'],
    releasedAlias: (raw) => (raw.data as { account: string }).account,
  },
};

let position = 0;
const rec = (type: string, data: unknown, stream = 's'): RecordedEvent => ({
  id: `e${++position}`,
  stream,
  revision: 0,
  position,
  type,
  data,
  metadata: {},
  created: t(0),
});

const created = (id = 'sub_1', events = ['thing.happened']) =>
  rec('WebhookCreated', {
    webhook_id: id,
    channel: 'test',
    owner: { kind: 'tenant', id: 'tn_1' },
    url: 'https://example.com/hook',
    events,
    secret_id: 'sec_1',
    created_at: t(0),
  });
const published = (eventId: string, at = 0) =>
  rec('Published', {
    owner: 'tn_1',
    envelope: { id: eventId, type: 'thing.happened', created: t(at), data: {} },
  });
const del = (eventId: string, webhookId = 'sub_1', at = 0) => deliveryIdFor(webhookId, eventId, t(at));

/** A recorded attempt of delivery `evt` at `at` ms after T0: automatic unless said otherwise. */
const attempt = (eventId: string, at: number, over: Partial<DeliveryAttemptData> = {}) =>
  rec('WebhookDeliveryAttempted', {
    delivery_id: del(eventId),
    webhook_id: 'sub_1',
    channel: 'test',
    event_id: eventId,
    event_type: 'thing.happened',
    number: 1,
    automatic: 1,
    manual: false,
    request_id: null,
    started_at: t(at),
    duration_ms: 100,
    status_code: 500,
    error: null,
    response_body: null,
    succeeded: false,
    next_attempt_at: null,
    final: null,
    ...over,
  } satisfies DeliveryAttemptData);
const disabled = (at: number) =>
  rec('WebhookDisabled', {
    webhook_id: 'sub_1',
    channel: 'test',
    reason: 'manual',
    delivery_id: null,
    status_code: null,
    disabled_at: t(at),
  });
const reEnabled = (at: number) =>
  rec('WebhookReEnabled', { webhook_id: 'sub_1', channel: 'test', re_enabled_at: t(at) });
const held = (eventId: string, at: number) =>
  rec('WebhookDeliveryHeld', {
    delivery_id: del(eventId),
    webhook_id: 'sub_1',
    channel: 'test',
    event_id: eventId,
    event_type: 'thing.happened',
    owner_id: 'tn_1',
    reason: 'insufficient_credits',
    manual: false,
    request_id: null,
    held_at: t(at),
  });

/** given the stored events, when replayed, then the webhook lines. */
const given = (...events: RecordedEvent[]) => ({
  whenReplayed: (options = {}): WebhookAuditLine[] => {
    const replay = new DeliveriesReplay([channel], options);
    for (const e of events) replay.apply(e);
    return replay.lines();
  },
});
const rules = (line: WebhookAuditLine | undefined) => line?.breaks.map((b) => [b.automatic, b.rule]);

describe('deliveries audit: the replay by outcome', () => {
  it('counts every fanned-out delivery, attempted or not, by outcome; attempts by kind', () => {
    const [line] = given(
      created(),
      published('evt_1'),
      published('evt_2'),
      published('evt_3'),
      attempt('evt_1', 1000, { succeeded: true, status_code: 200 }),
      attempt('evt_2', 1000),
      attempt('evt_3', 1000, { status_code: 410, final: 'gone' }),
      attempt('evt_3', 5 * MIN, { number: 2, automatic: null, manual: true, request_id: 'r1', succeeded: false }),
    ).whenReplayed();
    assert.deepEqual(line, {
      webhook_id: 'sub_1',
      channel: 'test',
      owner_id: 'tn_1',
      status: 'active',
      deliveries: { succeeded: 1, failed: 1, pending: 1, held: 0, cancelled: 0 },
      attempts: { automatic: 3, manual: 1, outcome_unknown: 0 },
      breaks: [],
      ok: true,
    });
  });

  it('an attempt sent before a kill and recorded after the disable that cancelled its delivery: counted as outcome unknown, the delivery stays cancelled, no break', () => {
    // ADR 0070: the next worker records it with the time it was sent, whatever the delivery's state.
    const [line] = given(
      created(),
      published('evt_1'),
      disabled(2000),
      attempt('evt_1', 1000, {
        status_code: null,
        error: OUTCOME_UNKNOWN_ERROR,
        duration_ms: 0,
        next_attempt_at: t(MIN + 65_000),
      }),
    ).whenReplayed();
    assert.deepEqual(line?.attempts, { automatic: 1, manual: 0, outcome_unknown: 1 });
    assert.deepEqual(line?.deliveries, { succeeded: 0, failed: 0, pending: 0, held: 0, cancelled: 1 });
    assert.deepEqual(line?.breaks, []);
  });

  it('an envelope published twice, or of a type not subscribed, makes no second delivery', () => {
    const [line] = given(
      created('sub_1', ['other.type']),
      published('evt_1'),
      rec('WebhookUpdated', { webhook_id: 'sub_1', channel: 'test', events: ['thing.happened'], updated_at: t(0) }),
      published('evt_2'),
      published('evt_2'),
    ).whenReplayed();
    assert.deepEqual(line?.deliveries, { succeeded: 0, failed: 0, pending: 1, held: 0, cancelled: 0 });
  });

  it('a hold is counted held until the owner’s credits release it; disabling cancels what is open', () => {
    const events = [
      rec('Opened', { account: 'acct_1' }),
      created(),
      published('evt_1'),
      published('evt_2'),
      held('evt_1', 1000),
    ];
    assert.equal(given(...events).whenReplayed()[0]?.deliveries.held, 1);
    const released = given(...events, rec('Funded', { account: 'acct_1' })).whenReplayed()[0];
    assert.deepEqual(released?.deliveries, { succeeded: 0, failed: 0, pending: 2, held: 0, cancelled: 0 });
    const cancelled = given(...events, disabled(2000)).whenReplayed()[0];
    assert.deepEqual(cancelled?.deliveries, { succeeded: 0, failed: 0, pending: 0, held: 0, cancelled: 2 });
    assert.equal(cancelled?.status, 'disabled');
  });

  it('--webhook: only that webhook’s line', () => {
    const lines = given(created('sub_1'), created('sub_2'), published('evt_1')).whenReplayed({ webhookId: 'sub_2' });
    assert.deepEqual(
      lines.map((l) => [l.webhook_id, l.deliveries.pending]),
      [['sub_2', 1]],
    );
  });
});

describe('deliveries audit: the schedule', () => {
  it('the schedule followed to the fifth failure breaks nothing', () => {
    // Each retry at the end of the previous attempt (started + 100 ms) + 1, 5, 30 min, 2 h.
    const starts = [0, MIN + 100, 6 * MIN + 200, 36 * MIN + 300, 156 * MIN + 400];
    const [line] = given(
      created(),
      published('evt_1'),
      ...starts.map((at, i) =>
        attempt('evt_1', at, { number: i + 1, automatic: i + 1, final: i === 4 ? 'exhausted' : null }),
      ),
    ).whenReplayed();
    assert.deepEqual(line?.breaks, []);
    assert.equal(line?.deliveries.failed, 1);
  });

  it('an automatic attempt started before its due time (beyond the 1 s tolerance) is early', () => {
    const [line] = given(
      created(),
      published('evt_1'),
      attempt('evt_1', 0),
      attempt('evt_1', 2000, { number: 2, automatic: 2 }),
    ).whenReplayed();
    assert.deepEqual(line?.breaks, [
      {
        delivery_id: del('evt_1'),
        attempt: 2,
        automatic: 2,
        rule: 'early',
        started_at: t(2000),
        due_at: t(MIN + 100),
        detail: 'automatic attempt 2 started 58 s before it was due',
      },
    ]);
    assert.equal(line?.ok, false);
    // Within the tolerance: not a break.
    const [tolerated] = given(
      created(),
      published('evt_1'),
      attempt('evt_1', 0),
      attempt('evt_1', MIN + 100 - 900, { number: 2, automatic: 2 }),
    ).whenReplayed();
    assert.deepEqual(tolerated?.breaks, []);
  });

  it('a sixth automatic attempt is too many; one after the end of the delivery is not due', () => {
    const starts = [0, MIN + 100, 6 * MIN + 200, 36 * MIN + 300, 156 * MIN + 400, 300 * MIN];
    const [line] = given(
      created(),
      published('evt_1'),
      published('evt_2'),
      ...starts.map((at, i) => attempt('evt_1', at, { number: i + 1, automatic: i + 1 })),
      attempt('evt_2', 0, { succeeded: true, status_code: 200 }),
      attempt('evt_2', 10 * MIN, { number: 2, automatic: 2, succeeded: true, status_code: 200 }),
    ).whenReplayed();
    assert.deepEqual(rules(line), [
      [6, 'too_many'],
      [2, 'not_due'],
    ]);
  });

  it('an automatic attempt while the webhook is disabled breaks it; a manual one does not; after a re-enable, only cancelled deliveries are not due', () => {
    const [line] = given(
      created(),
      published('evt_1'),
      attempt('evt_1', 0),
      disabled(30_000),
      attempt('evt_1', 2 * MIN, { number: 2, automatic: 2 }),
      attempt('evt_1', 3 * MIN, { number: 3, automatic: null, manual: true, request_id: 'r1' }),
      reEnabled(4 * MIN),
      published('evt_2', 5 * MIN),
      attempt('evt_1', 10 * MIN, { number: 4, automatic: 3 }),
    ).whenReplayed();
    assert.deepEqual(rules(line), [
      [2, 'while_disabled'],
      [3, 'not_due'],
    ]);
    assert.equal(line?.breaks[0]?.due_at, t(30_000));
    assert.deepEqual(line?.deliveries, { succeeded: 0, failed: 0, pending: 1, held: 0, cancelled: 1 });
  });

  it('an attempt in flight when the webhook was disabled (started before) is no break', () => {
    const [line] = given(
      created(),
      published('evt_1'),
      published('evt_2'),
      disabled(500),
      attempt('evt_2', 100),
    ).whenReplayed();
    assert.deepEqual(line?.breaks, []);
  });

  it('attempts of a delivery the replay never fanned out are checked from its id’s time', () => {
    // No Published event: the attempt is the first the replay hears of the delivery.
    const [line] = given(attempt('evt_9', -5000)).whenReplayed();
    assert.equal(line?.status, 'unknown');
    assert.deepEqual(rules(line), [[1, 'early']]);
    assert.equal(deliveryIdTime(del('evt_9')), T0);
  });
});

describe('deliveries audit: the pure checks', () => {
  const due: DeliverySchedule = { state: 'pending', automatic: 1, dueMs: T0 + MIN, closedMs: null };

  it('given a due time, when an attempt starts, then early only beyond the tolerance', () => {
    const at = (ms: number) => ({ delivery_id: 'del_x', number: 2, started_at: t(ms) });
    assert.deepEqual(automaticAttemptBreaks(due, { disabledMs: null }, at(MIN)), []);
    assert.deepEqual(automaticAttemptBreaks(due, { disabledMs: null }, at(MIN - 1000)), []);
    assert.deepEqual(
      automaticAttemptBreaks(due, { disabledMs: null }, at(MIN - 1001)).map((b) => b.rule),
      ['early'],
    );
    assert.deepEqual(
      automaticAttemptBreaks(due, { disabledMs: null }, at(0), 0).map((b) => b.rule),
      ['early'],
    );
  });

  it('after a failed automatic attempt the next is due at its end plus the schedule’s delay', () => {
    const failed = { automatic: 2, started_at: t(MIN), duration_ms: 250, succeeded: false, final: null } as const;
    assert.deepEqual(afterAttempt(due, failed), {
      state: 'pending',
      automatic: 2,
      dueMs: T0 + MIN + 250 + 5 * MIN,
      closedMs: null,
    });
    const done = afterAttempt(due, { ...failed, succeeded: true });
    assert.deepEqual(done, { state: 'succeeded', automatic: 2, dueMs: null, closedMs: T0 + MIN + 250 });
  });

  it('reads the engine’s events, the channel sources and their releases from $all', () => {
    assert.deepEqual(deliveriesAuditFilter([channel]), {
      eventTypePrefixes: ['Webhook', 'Published', 'Opened', 'Funded'],
    });
  });
});
