import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deciderSpec } from '#kernel/testing';
import type { WebhookOwner } from './channel.js';
import { webhookDecider } from './webhook.decider.js';
import type { WebhookEvent } from './webhook.events.js';

const spec = deciderSpec(webhookDecider);
const owner: WebhookOwner = { kind: 'platform_account', id: 'acct_1' };
const other: WebhookOwner = { kind: 'platform_account', id: 'acct_2' };
const t0 = new Date('2026-01-01T00:00:00.000Z');
const t1 = new Date('2026-01-01T01:00:00.000Z');
const t2 = new Date('2026-01-01T02:00:00.000Z');
const base = { webhook_id: 'wh_1', channel: 'platform' };
const created: WebhookEvent = {
  type: 'WebhookCreated',
  data: {
    ...base,
    owner,
    url: 'https://example.com/hook',
    events: ['agent.completed'],
    secret_id: 'wh_1:s1',
    created_at: t0.toISOString(),
  },
};
const disabled: WebhookEvent = {
  type: 'WebhookDisabled',
  data: { ...base, reason: 'delivery_failed', delivery_id: 'del_1', status_code: 500, disabled_at: t1.toISOString() },
};

describe('webhook decider', () => {
  it('creates a webhook once', () => {
    spec
      .given([])
      .when({
        type: 'CreateWebhook',
        webhookId: 'wh_1',
        channel: 'platform',
        owner,
        url: 'https://example.com/hook',
        events: ['agent.completed'],
        secretId: 'wh_1:s1',
        now: t0,
      })
      .then([created]);
    spec
      .given([created])
      .when({
        type: 'CreateWebhook',
        webhookId: 'wh_1',
        channel: 'platform',
        owner,
        url: 'https://x.example',
        events: ['agent.failed'],
        secretId: 's',
        now: t1,
      })
      .thenThrows((e) => e.code === 'WEBHOOK_EXISTS');
  });

  it('updates only what changed; nothing changed → no event', () => {
    spec
      .given([created])
      .when({ type: 'UpdateWebhook', owner, url: 'https://example.com/hook', events: ['agent.failed'], now: t1 })
      .then([{ type: 'WebhookUpdated', data: { ...base, events: ['agent.failed'], updated_at: t1.toISOString() } }]);
    spec
      .given([created])
      .when({ type: 'UpdateWebhook', owner, url: 'https://example.com/hook', active: true, now: t1 })
      .then([]);
  });

  it("another owner's webhook, a deleted one and a missing one are all 404", () => {
    spec
      .given([created])
      .when({ type: 'UpdateWebhook', owner: other, active: false, now: t1 })
      .thenThrows((e) => e.kind === 'not_found' && e.code === 'WEBHOOK_NOT_FOUND');
    spec
      .given([])
      .when({ type: 'DeleteWebhook', owner, now: t1 })
      .thenThrows((e) => e.kind === 'not_found');
    spec
      .given([created, { type: 'WebhookDeleted', data: { ...base, deleted_at: t1.toISOString() } }])
      .when({ type: 'DeleteWebhook', owner, now: t2 })
      .thenThrows((e) => e.kind === 'not_found');
  });

  it('a final failure disables an active webhook once', () => {
    const cmd = {
      type: 'DisableWebhook' as const,
      reason: 'delivery_failed' as const,
      deliveryId: 'del_1',
      statusCode: 500,
      attemptStartedAt: t1,
      now: t1,
    };
    spec.given([created]).when(cmd).then([disabled]);
    spec.given([created, disabled]).when(cmd).then([]);
  });

  it('a failure of an attempt that started before the re-enabling does not disable again', () => {
    const reEnabled: WebhookEvent = { type: 'WebhookReEnabled', data: { ...base, re_enabled_at: t2.toISOString() } };
    spec
      .given([created, disabled, reEnabled])
      .when({
        type: 'DisableWebhook',
        reason: 'gone',
        deliveryId: 'del_2',
        statusCode: 410,
        attemptStartedAt: t1,
        now: t2,
      })
      .then([]);
    spec
      .given([created, disabled, reEnabled])
      .when({
        type: 'DisableWebhook',
        reason: 'gone',
        deliveryId: 'del_2',
        statusCode: 410,
        attemptStartedAt: t2,
        now: t2,
      })
      .then([
        {
          type: 'WebhookDisabled',
          data: { ...base, reason: 'gone', delivery_id: 'del_2', status_code: 410, disabled_at: t2.toISOString() },
        },
      ]);
  });

  it('PATCH active: true re-enables a disabled webhook; active: false disables an active one', () => {
    spec
      .given([created, disabled])
      .when({ type: 'UpdateWebhook', owner, active: true, now: t2 })
      .then([{ type: 'WebhookReEnabled', data: { ...base, re_enabled_at: t2.toISOString() } }]);
    spec
      .given([created])
      .when({ type: 'UpdateWebhook', owner, active: false, now: t2 })
      .then([
        {
          type: 'WebhookDisabled',
          data: { ...base, reason: 'manual', delivery_id: null, status_code: null, disabled_at: t2.toISOString() },
        },
      ]);
  });

  it('a test event needs an active webhook', () => {
    const event = { id: 'evt_1', type: 'webhook.test', created: t1.toISOString(), data: {} };
    spec
      .given([created])
      .when({ type: 'RequestTestEvent', owner, event, now: t1 })
      .then([
        { type: 'WebhookTestRequested', data: { ...base, owner_id: 'acct_1', event, requested_at: t1.toISOString() } },
      ]);
    spec
      .given([created, disabled])
      .when({ type: 'RequestTestEvent', owner, event, now: t1 })
      .thenThrows((e) => e.kind === 'conflict' && e.code === 'WEBHOOK_DISABLED');
  });

  it('the secret itself is never in an event (only its id)', () => {
    const events = webhookDecider.decide(
      {
        type: 'CreateWebhook',
        webhookId: 'wh_1',
        channel: 'platform',
        owner,
        url: 'https://e.com',
        events: ['agent.failed'],
        secretId: 'wh_1:s9',
        now: t0,
      },
      webhookDecider.initialState,
    );
    assert.ok(!JSON.stringify(events).includes('secret"'), 'no field named secret');
    assert.equal((events[0]!.data as { secret_id: string }).secret_id, 'wh_1:s9');
  });
});
