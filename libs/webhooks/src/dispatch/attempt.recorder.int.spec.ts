import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type EventStore, SqliteEventStore } from '#eventstore';
import { type AttemptOutcome, OUTCOME_UNKNOWN } from '../engine/delivery.decider.js';
import { deliveryStream } from '../engine/delivery.events.js';
import type { DeliveryDoc } from '../engine/webhook-docs.js';
import { pendingDelivery } from '../testing/delivery-doc.fixture.js';
import { AttemptRecorder } from './attempt.recorder.js';

/** The read model's document of a delivery whose stream is empty (no attempt yet). */
const fresh = (id: string): DeliveryDoc => pendingDelivery({ id });
const ok: AttemptOutcome = { statusCode: 200, durationMs: 3, error: null, responseBody: 'ok', succeeded: true };
const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));

describe('AttemptRecorder: one record per attempt (ADR 0070)', () => {
  let dir: string;
  let events: EventStore;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'attempt-recorder-'));
    events = new SqliteEventStore({ path: join(dir, 'svc.sqlite') });
  });
  after(async () => {
    await events.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('a sender that outlived its lease, whose attempt the next holder recorded as outcome unknown: nothing recorded twice', async () => {
    const recorder = new AttemptRecorder(events, 'platform');
    const doc = fresh('del_outlived');
    // The next holder of the lease records attempt 1 as outcome unknown...
    const recovered = await recorder.record(doc, -1, {
      manual: false,
      startedAt: at(1),
      completedAt: at(70),
      outcome: OUTCOME_UNKNOWN,
    });
    assert.equal(recovered?.data.automatic, 1);
    // ...then the first sender, which read the same document, records its real outcome.
    const late = await recorder.record(doc, -1, { manual: false, startedAt: at(1), completedAt: at(71), outcome: ok });
    assert.equal(late, null);
    const stored = [];
    for await (const e of events.readStream(deliveryStream(doc.id))) stored.push(e);
    assert.deepEqual(
      stored.map((e) => [e.type, (e.data as { error: string | null }).error]),
      [['WebhookDeliveryAttempted', OUTCOME_UNKNOWN.error]],
    );
  });

  it('an attempt whose stream moved for another reason (a redelivery asked meanwhile) is still recorded', async () => {
    const recorder = new AttemptRecorder(events, 'platform');
    const doc = fresh('del_moved');
    await events.append(
      deliveryStream(doc.id),
      [
        {
          type: 'WebhookRedeliveryRequested',
          data: {
            delivery_id: doc.id,
            webhook_id: 'wh_1',
            channel: 'platform',
            event_id: 'evt_1',
            event_type: 'agent.completed',
            request_id: 'req_1',
            requested_at: at(0).toISOString(),
          },
        },
      ],
      'no_stream',
    );
    const recorded = await recorder.record(doc, -1, {
      manual: false,
      startedAt: at(1),
      completedAt: at(2),
      outcome: ok,
    });
    assert.equal(recorded?.data.automatic, 1);
    assert.equal(recorded?.revision, 1);
  });
});
