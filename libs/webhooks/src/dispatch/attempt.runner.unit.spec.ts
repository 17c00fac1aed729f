import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock } from '#kernel';
import type { EventStore } from '#eventstore';
import type { WebhookChannel } from '../engine/channel.js';
import type { DeliveryDoc, WebhookDoc } from '../engine/webhooks.projection.js';
import type { WebhookSender } from '../sending/webhook-sender.js';
import type { AttemptRecorder } from './attempt.recorder.js';
import { AttemptRunner } from './attempt.runner.js';
import type { DeliveryInputs } from './delivery-inputs.reader.js';
import { InProcessLeases } from './leases.js';
import type { WebhookDisabler } from './webhook.disabler.js';

const queued: DeliveryDoc = {
  id: 'del_1',
  webhook_id: 'wh_1',
  owner_id: 'acct_1',
  event_id: 'evt_1',
  event_type: 'agent.completed',
  created_at: '2026-01-01T00:00:00.000Z',
  state: 'pending',
  attempts: [],
  attempt_count: 1,
  automatic_attempts: 1,
  next_attempt_at: '2026-01-01T00:00:01.000Z',
  manual_request_id: null,
  manual_requested_at: null,
  dispatch_at: '2026-01-01T00:00:01.000Z',
  revision: 0,
  target: 'http://127.0.0.1:9',
};
const activeAgain = { id: 'wh_1', status: 'active', url: 'http://127.0.0.1:9/x', secret_id: 's' } as WebhookDoc;

/**
 * An AttemptRunner around fakes: the read model's delivery document as it is now (`current`),
 * the webhook as the read model shows it, and a sender that counts what it is asked to send.
 */
function runner(current: DeliveryDoc | null) {
  const sent: string[] = [];
  const sender = {
    send: async () => {
      sent.push('x');
      return { statusCode: 200, durationMs: 1, error: null, responseBody: 'ok', succeeded: true };
    },
  } as unknown as WebhookSender;
  const inputs = {
    webhook: async () => activeAgain,
    secretWaiting: () => false,
    body: async () => Buffer.from('{}'),
    secret: async () => 'secret',
  } as unknown as DeliveryInputs;
  const recorder = {
    record: async () => ({ data: { final: null }, revision: 1, position: 10 }),
  } as unknown as AttemptRecorder;
  const events = { streamRevision: async () => 0 } as unknown as EventStore;
  const attempts = new AttemptRunner(
    { name: 'platform', ownerKind: 'account' } as unknown as WebhookChannel,
    { events, clock: new FakeClock('2026-01-01T00:00:05.000Z'), sender, leases: new InProcessLeases() },
    60_000,
    inputs,
    recorder,
    { disabledHere: () => false } as unknown as WebhookDisabler,
    { warn: () => undefined },
    { recorded: () => undefined, appended: () => undefined, attempted: () => undefined },
    { get: async () => current },
  );
  return {
    sent,
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
