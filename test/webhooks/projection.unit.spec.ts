import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { channelNames, deliveryIdFor, webhooksProjection, type DeliveryAttemptData, type DeliveryDoc } from '#webhooks';
import { platformEventPublished, platformWebhookChannel } from '#platform';
import { MemoryProjection } from '#projections/testing';

const names = channelNames(platformWebhookChannel);
const owner = { kind: 'platform_account' as const, id: 'acct_1' };
const base = { webhook_id: 'wh_1', channel: 'platform' };
const t = (min: number) => new Date(Date.UTC(2026, 0, 1, 0, min)).toISOString();

const created = {
  type: 'WebhookCreated',
  data: {
    ...base,
    owner,
    url: 'https://example.com/a',
    events: ['agent.completed', 'agent.failed'],
    secret_id: 's1',
    created_at: t(0),
  },
};
const published = (
  id: string,
  type: 'agent.completed' | 'agent.failed' | 'security.alert' = 'agent.completed',
  account = 'acct_1',
) => platformEventPublished(account, { id, type, created: t(1), data: { n: 1 } });
const del1 = deliveryIdFor('wh_1', 'evt_1', t(1));
const attempt = (over: Partial<DeliveryAttemptData>): { type: string; data: DeliveryAttemptData } => ({
  type: 'WebhookDeliveryAttempted',
  data: {
    delivery_id: del1,
    webhook_id: 'wh_1',
    channel: 'platform',
    event_id: 'evt_1',
    event_type: 'agent.completed',
    number: 1,
    automatic: 1,
    manual: false,
    request_id: null,
    started_at: t(1),
    duration_ms: 5,
    status_code: 500,
    error: null,
    response_body: 'no',
    succeeded: false,
    next_attempt_at: t(2),
    final: null,
    ...over,
  },
});

/** Every event applied twice in a row leaves the same documents as applied once. */
async function appliedTwiceChangesNothing(
  events: Array<{ stream: string; event: { type: string; data: unknown }; revision?: number }>,
): Promise<MemoryProjection> {
  const once = new MemoryProjection(webhooksProjection(platformWebhookChannel));
  const twice = new MemoryProjection(webhooksProjection(platformWebhookChannel));
  for (const { stream, event, revision } of events) {
    await once.apply(once.record(stream, event, revision));
    const recorded = twice.record(stream, event, revision);
    await twice.apply(recorded);
    await twice.apply(recorded);
    assert.deepEqual(twice.snapshot(), once.snapshot(), `${event.type} applied twice changed the read model`);
  }
  return once;
}

describe('webhooks-platform projection: each event applied twice changes nothing', () => {
  it('webhook lifecycle, fan-out, attempts, redelivery, disable, re-enable, test event, delete', async () => {
    const result = await appliedTwiceChangesNothing([
      { stream: 'webhook-wh_1', event: created },
      { stream: 'x-1', event: published('evt_1') },
      { stream: 'x-2', event: published('evt_2', 'security.alert') },
      { stream: 'x-3', event: published('evt_3', 'agent.completed', 'acct_2') },
      { stream: `webhookdelivery-${del1}`, event: attempt({}), revision: 0 },
      {
        stream: `webhookdelivery-${del1}`,
        event: {
          type: 'WebhookRedeliveryRequested',
          data: {
            delivery_id: del1,
            webhook_id: 'wh_1',
            channel: 'platform',
            event_id: 'evt_1',
            event_type: 'agent.completed',
            request_id: 'req_1',
            requested_at: t(1),
          },
        },
        revision: 1,
      },
      {
        stream: `webhookdelivery-${del1}`,
        event: attempt({ number: 2, automatic: null, manual: true, request_id: 'req_1', next_attempt_at: null }),
        revision: 2,
      },
      {
        stream: 'webhook-wh_1',
        event: {
          type: 'WebhookUpdated',
          data: { ...base, url: 'https://example.com/b', events: ['agent.completed'], updated_at: t(2) },
        },
      },
      { stream: 'x-4', event: published('evt_4') },
      {
        stream: 'webhook-wh_1',
        event: {
          type: 'WebhookDisabled',
          data: { ...base, reason: 'gone', delivery_id: del1, status_code: 410, disabled_at: t(3) },
        },
      },
      { stream: 'x-5', event: published('evt_5') },
      { stream: 'webhook-wh_1', event: { type: 'WebhookReEnabled', data: { ...base, re_enabled_at: t(4) } } },
      {
        stream: 'webhook-wh_1',
        event: {
          type: 'WebhookTestRequested',
          data: {
            ...base,
            owner_id: 'acct_1',
            event: { id: 'evt_t', type: 'webhook.test', created: t(5), data: {} },
            requested_at: t(5),
          },
        },
      },
      { stream: 'webhook-wh_1', event: { type: 'WebhookDeleted', data: { ...base, deleted_at: t(6) } } },
    ]);
    const deliveries = Object.values(result.snapshot()[names.deliveries]!) as DeliveryDoc[];
    // evt_1 and evt_4 (subscribed), the test event; not evt_2 (unsubscribed type), evt_3 (other
    // account), evt_5 (webhook disabled).
    assert.deepEqual(deliveries.map((d) => d.event_id).sort(), ['evt_1', 'evt_4', 'evt_t']);
    const first = result.snapshot()[names.deliveries]![del1] as DeliveryDoc;
    assert.deepEqual(
      first.attempts.map((a) => [a.number, a.manual]),
      [
        [1, false],
        [2, true],
      ],
    );
    assert.equal(first.automatic_attempts, 1, 'the manual attempt is not an automatic one');
    // Disabled, then deleted: nothing left to dispatch.
    assert.ok(deliveries.every((d) => d.dispatch_at === null));
    assert.deepEqual(deliveries.map((d) => d.state).sort(), ['cancelled', 'cancelled', 'cancelled']);
  });

  it('a duplicate publish of one envelope id makes no second delivery', async () => {
    const p = new MemoryProjection(webhooksProjection(platformWebhookChannel));
    await p.apply(p.record('webhook-wh_1', created));
    await p.apply(p.record('x-1', published('evt_1')));
    await p.apply(
      p.record(`webhookdelivery-${del1}`, attempt({ succeeded: true, status_code: 200, next_attempt_at: null }), 0),
    );
    const before = p.snapshot();
    await p.apply(p.record('x-1-again', published('evt_1')));
    assert.deepEqual(p.snapshot(), before);
    assert.equal((before[names.deliveries]![del1] as DeliveryDoc).state, 'succeeded');
  });

  it('the fifth failure asks for the disable (kept until WebhookDisabled arrives)', async () => {
    const p = new MemoryProjection(webhooksProjection(platformWebhookChannel));
    await p.apply(p.record('webhook-wh_1', created));
    await p.apply(p.record('x-1', published('evt_1')));
    await p.apply(
      p.record(
        `webhookdelivery-${del1}`,
        attempt({ number: 5, automatic: 5, final: 'exhausted', next_attempt_at: null }),
        4,
      ),
    );
    const webhook = p.snapshot()[names.webhooks]!['wh_1'] as Record<string, any>;
    assert.equal(webhook.disable_requested_at, t(1));
    assert.equal(webhook.failure_count, 1);
    assert.equal((p.snapshot()[names.deliveries]![del1] as DeliveryDoc).state, 'failed');
    await p.apply(
      p.record('webhook-wh_1', {
        type: 'WebhookDisabled',
        data: { ...base, reason: 'delivery_failed', delivery_id: del1, status_code: 500, disabled_at: t(2) },
      }),
    );
    assert.equal((p.snapshot()[names.webhooks]!['wh_1'] as Record<string, any>).disable_requested_at, null);
  });
});
