import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { platformEventPublished, platformWebhookChannel } from '#platform';
import { MemoryProjection } from '#projections/testing';
import {
  channelNames,
  DeliveriesReplay,
  type DeliveryAttemptData,
  type DeliveryDoc,
  deliveryIdFor,
  webhooksProjection,
} from '#webhooks';

const names = channelNames(platformWebhookChannel);
const owner = { kind: 'platform_account' as const, id: 'acct_1' };
const t = (min: number) => new Date(Date.UTC(2026, 0, 1, 0, min)).toISOString();

const createdWebhook = (id: string) => ({
  type: 'WebhookCreated',
  data: {
    webhook_id: id,
    channel: 'platform',
    owner,
    url: `https://example.com/${id}`,
    events: ['agent.completed'],
    secret_id: `s_${id}`,
    created_at: t(0),
  },
});
const published = (id: string, min = 1) =>
  platformEventPublished('acct_1', { id, type: 'agent.completed', created: t(min), data: {} });
const del = (webhookId: string, eventId: string, min = 1) => deliveryIdFor(webhookId, eventId, t(min));
const attempt = (webhookId: string, eventId: string, over: Partial<DeliveryAttemptData>) => ({
  type: 'WebhookDeliveryAttempted',
  data: {
    delivery_id: del(webhookId, eventId),
    webhook_id: webhookId,
    channel: 'platform',
    event_id: eventId,
    event_type: 'agent.completed',
    number: 1,
    automatic: 1,
    manual: false,
    request_id: null,
    started_at: t(2),
    duration_ms: 5,
    status_code: 500,
    error: null,
    response_body: null,
    succeeded: false,
    next_attempt_at: t(3),
    final: null,
    ...over,
  } satisfies DeliveryAttemptData,
});
const held = (webhookId: string, eventId: string) => ({
  type: 'WebhookDeliveryHeld',
  data: {
    delivery_id: del(webhookId, eventId),
    webhook_id: webhookId,
    channel: 'platform',
    event_id: eventId,
    event_type: 'agent.completed',
    owner_id: 'acct_1',
    reason: 'insufficient_credits',
    manual: false,
    request_id: null,
    held_at: t(4),
  },
});

/**
 * The audit's replay follows the fan-out and the outcomes of the webhooks projection without
 * running it: over one history, both must count the same deliveries in the same states.
 */
describe('deliveries audit against the webhooks projection', () => {
  it('counts the deliveries of each webhook by state exactly as the read model holds them', async () => {
    const history: Array<[stream: string, event: { type: string; data: unknown }, revision?: number]> = [
      ['webhook-wh_1', createdWebhook('wh_1')],
      ['webhook-wh_2', createdWebhook('wh_2')],
      ['x-1', published('evt_1')],
      ['x-2', published('evt_2')],
      ['x-3', published('evt_3')],
      ['x-4', published('evt_4')],
      ['x-4b', published('evt_4')], // published twice: one delivery each
      [`webhookdelivery-${del('wh_1', 'evt_1')}`, attempt('wh_1', 'evt_1', { succeeded: true, status_code: 200 })],
      [`webhookdelivery-${del('wh_1', 'evt_2')}`, attempt('wh_1', 'evt_2', { status_code: 410, final: 'gone' })],
      [`webhookdelivery-${del('wh_1', 'evt_3')}`, attempt('wh_1', 'evt_3', {})],
      [`webhookdelivery-${del('wh_1', 'evt_4')}`, held('wh_1', 'evt_4')],
      [`webhookdelivery-${del('wh_2', 'evt_1')}`, held('wh_2', 'evt_1')],
      [
        'webhookrelease-platform-acct_1',
        {
          type: 'WebhookDeliveriesReleased',
          data: { channel: 'platform', owner_id: 'acct_1', reason: 'credits_available', released_at: t(5) },
        },
      ],
      [`webhookdelivery-${del('wh_2', 'evt_2')}`, held('wh_2', 'evt_2')],
      [
        'webhook-wh_1',
        {
          type: 'WebhookDisabled',
          data: {
            webhook_id: 'wh_1',
            channel: 'platform',
            reason: 'gone',
            delivery_id: del('wh_1', 'evt_2'),
            status_code: 410,
            disabled_at: t(6),
          },
        },
      ],
      ['x-5', published('evt_5', 7)],
      [
        'webhook-wh_1',
        { type: 'WebhookReEnabled', data: { webhook_id: 'wh_1', channel: 'platform', re_enabled_at: t(8) } },
      ],
      ['x-6', published('evt_6', 9)],
      [
        'webhook-wh_2',
        {
          type: 'WebhookTestRequested',
          data: {
            webhook_id: 'wh_2',
            channel: 'platform',
            owner_id: 'acct_1',
            event: { id: 'evt_t', type: 'webhook.test', created: t(10), data: {} },
            requested_at: t(10),
          },
        },
      ],
    ];
    const projection = new MemoryProjection(webhooksProjection(platformWebhookChannel));
    const replay = new DeliveriesReplay([platformWebhookChannel]);
    for (const [stream, event, revision] of history) {
      const recorded = projection.record(stream, event, revision);
      await projection.apply(recorded);
      replay.apply(recorded);
    }

    const fromReadModel = new Map<string, Record<string, number>>();
    for (const doc of Object.values(projection.snapshot()[names.deliveries]!) as DeliveryDoc[]) {
      const counts = fromReadModel.get(doc.webhook_id) ?? {
        succeeded: 0,
        failed: 0,
        pending: 0,
        held: 0,
        cancelled: 0,
      };
      counts[doc.state]!++;
      fromReadModel.set(doc.webhook_id, counts);
    }
    const lines = replay.lines();
    assert.deepEqual(
      Object.fromEntries(lines.map((l) => [l.webhook_id, l.deliveries])),
      Object.fromEntries(fromReadModel),
    );
    // And what the history means, spelled out.
    assert.deepEqual(
      lines.map((l) => [l.webhook_id, l.status, l.deliveries]),
      [
        ['wh_1', 'active', { succeeded: 1, failed: 1, pending: 1, held: 0, cancelled: 2 }],
        ['wh_2', 'active', { succeeded: 0, failed: 0, pending: 6, held: 1, cancelled: 0 }],
      ],
    );
  });
});
