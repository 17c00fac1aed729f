import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Injectable, Module } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { FakeClock } from '#kernel';
import { EVENT_STORE, type EventStore } from '#eventstore';
import {
  type AttemptContext,
  type AttemptOutcome,
  type BeforeSendDecision,
  CreateWebhookCommand,
  type DeliveryHooks,
  ListDeliveriesQuery,
  type WebhookChannel,
  WebhookChannelModule,
  WebhookDispatchers,
  WebhookReadModel,
} from '#webhooks';
import { startTestApi, type TestApi } from '../api/support/test-api.js';
import { TestReceiver } from './support/receiver.js';

const SECRET = 'tenant-secret-0123456789';

/** A second channel, as the agent surface's workspace subscriptions will be: tenant owners, own events. */
const tenantChannel: WebhookChannel = {
  name: 'tenant_test',
  ownerKind: 'tenant',
  idPrefix: 'sub',
  eventTypes: ['workspace.memo_updated', 'workspace.deal_updated'],
  testEventType: 'webhook.test',
  source: {
    storedEventTypes: ['TestWorkspaceEventRecorded'],
    toEnvelope(event) {
      const d = event.data as {
        tenant_id: string;
        envelope: { id: string; type: string; created: string; data: Record<string, unknown> };
      };
      return { ownerId: d.tenant_id, envelope: d.envelope };
    },
  },
};

/** Stands in for the `deliver.workspace.webhook` meter: charges each push, refuses when "out of credits". */
@Injectable()
class TestMeter implements DeliveryHooks {
  credits = 1;
  readonly charged: string[] = [];
  readonly outcomes: Array<{ key: string; ok: boolean }> = [];

  async beforeSend(attempt: AttemptContext): Promise<BeforeSendDecision> {
    if (this.credits <= 0) return { send: false, error: 'insufficient_credits' };
    this.credits -= 1;
    this.charged.push(attempt.attemptKey);
    return { send: true };
  }

  async afterAttempt(attempt: AttemptContext, outcome: AttemptOutcome): Promise<void> {
    this.outcomes.push({ key: attempt.attemptKey, ok: outcome.succeeded });
  }
}

@Module({ imports: [WebhookChannelModule.forChannel(tenantChannel, { hooks: TestMeter })] })
class TenantWebhooksTestModule {}

describe('the engine serves another channel (tenant owners, own event source, metering hooks)', () => {
  let api: TestApi;
  let receiver: TestReceiver;
  const clock = new FakeClock('2026-07-01T00:00:00.000Z');
  before(async () => {
    api = await startTestApi({
      clock,
      imports: [TenantWebhooksTestModule],
      env: { SVC_WEBHOOK_ALLOW_PRIVATE: 'true' },
    });
    receiver = await TestReceiver.start();
  });
  after(async () => {
    await api?.close();
    await receiver?.close();
  });

  it('fans out the channel’s own events to its own owners, signs them, and calls the hooks around each push', async () => {
    const commands = api.app.get(CommandBus);
    const owner = { kind: 'tenant' as const, id: 'tn_01TESTTENANT0000000000000000' };
    const created = await commands.execute(
      new CreateWebhookCommand({
        channel: 'tenant_test',
        owner,
        url: receiver.endpoint('/tenant', SECRET),
        events: ['workspace.memo_updated'],
        secret: SECRET,
      }),
    );
    assert.match(created.id, /^sub_/);
    const store = api.app.get<EventStore>(EVENT_STORE);
    const publish = (id: string, tenant: string) =>
      store.append(`workspace-${id}`, [
        {
          type: 'TestWorkspaceEventRecorded',
          data: {
            tenant_id: tenant,
            envelope: { id, type: 'workspace.memo_updated', created: clock.now().toISOString(), data: { memo: 'x' } },
          },
        },
      ]);
    await publish('evt_TENANT000000000000000000001', owner.id);
    await publish('evt_TENANT000000000000000000002', 'tn_someone_else');
    const dispatcher = api.app.get(WebhookDispatchers).get('tenant_test');
    await dispatcher.drain();
    assert.equal(receiver.at('/tenant').length, 1);
    assert.equal(receiver.at('/tenant')[0]!.signatureValid, true);
    const meter = api.app.get(TestMeter);
    assert.equal(meter.charged.length, 1);
    assert.deepEqual(
      meter.outcomes.map((o) => o.ok),
      [true],
    );

    // Out of credits: the attempt is recorded as failed without sending, and follows the schedule.
    await publish('evt_TENANT000000000000000000003', owner.id);
    await dispatcher.drain();
    assert.equal(receiver.at('/tenant').length, 1);
    const page = await api.app.get(QueryBus).execute(new ListDeliveriesQuery('tenant_test', owner, created.id, 10));
    const refused = page.data.find((d) => d.event_id === 'evt_TENANT000000000000000000003')!;
    assert.equal(refused.state, 'pending');
    assert.equal(refused.attempts[0]!.error, 'insufficient_credits');
    assert.equal(refused.next_attempt_at, new Date(clock.now().getTime() + 60_000).toISOString());
    meter.credits = 5;
    clock.advance(60_000);
    await dispatcher.drain();
    assert.equal(receiver.at('/tenant').length, 2);

    // The platform channel knows nothing of it.
    await assert.rejects(
      api.app
        .get(QueryBus)
        .execute(new ListDeliveriesQuery('platform', { kind: 'platform_account', id: owner.id }, created.id, 10)),
      (e: { kind?: string }) => e.kind === 'not_found',
    );
  });
});

/** A channel whose owners pay per push and are held, not failed, when they cannot. */
const holdingChannel: WebhookChannel = {
  name: 'tenant_hold',
  ownerKind: 'tenant',
  idPrefix: 'sub',
  eventTypes: ['workspace.memo_updated'],
  testEventType: 'webhook.test',
  source: {
    storedEventTypes: ['TestHoldEventRecorded'],
    toEnvelope(event) {
      const d = event.data as {
        tenant_id: string;
        envelope: { id: string; type: string; created: string; data: Record<string, unknown> };
      };
      return { ownerId: d.tenant_id, envelope: d.envelope };
    },
  },
  releases: {
    aliasEventTypes: ['TestTenantOpened'],
    toAlias: (event) => {
      const d = event.data as { tenant_id: string; account_id: string };
      return { alias: d.account_id, ownerId: d.tenant_id };
    },
    releaseEventTypes: ['TestCreditsArrived'],
    releasedAlias: (event) => (event.data as { account_id: string }).account_id,
  },
};

@Injectable()
class HoldingMeter implements DeliveryHooks {
  credits = 0;
  /** What afterHold answers: credits that came between the refusal and the hold. */
  arrivedMeanwhile = false;
  readonly charged: string[] = [];
  readonly settled: Array<{ key: string; ok: boolean }> = [];

  async beforeSend(attempt: AttemptContext): Promise<BeforeSendDecision> {
    if (this.credits <= 0) {
      if (this.arrivedMeanwhile) {
        this.credits = 1;
        this.arrivedMeanwhile = false;
        return { send: false, hold: 'insufficient_credits' };
      }
      return { send: false, hold: 'insufficient_credits' };
    }
    this.credits -= 1;
    this.charged.push(attempt.attemptKey);
    return { send: true };
  }

  async afterHold(): Promise<boolean> {
    return this.credits > 0;
  }

  async afterAttempt(attempt: AttemptContext, outcome: AttemptOutcome): Promise<void> {
    this.settled.push({ key: attempt.attemptKey, ok: outcome.succeeded });
  }
}

@Module({ imports: [WebhookChannelModule.forChannel(holdingChannel, { hooks: HoldingMeter })] })
class HoldingWebhooksTestModule {}

describe('held deliveries: an owner who cannot pay is held out of the schedule and released when credits arrive', () => {
  let api: TestApi;
  let receiver: TestReceiver;
  const clock = new FakeClock('2026-07-01T00:00:00.000Z');
  const owner = { kind: 'tenant' as const, id: 'tn_01HOLDTENANT0000000000000000' };
  before(async () => {
    api = await startTestApi({
      clock,
      imports: [HoldingWebhooksTestModule],
      env: { SVC_WEBHOOK_ALLOW_PRIVATE: 'true' },
    });
    receiver = await TestReceiver.start();
  });
  after(async () => {
    await api?.close();
    await receiver?.close();
  });

  it('holds without an attempt, shows the count on the webhook, and sends each held delivery once after a release', async () => {
    const commands = api.app.get(CommandBus);
    const queries = api.app.get(QueryBus);
    const store = api.app.get<EventStore>(EVENT_STORE);
    await store.append('testtenant-1', [
      { type: 'TestTenantOpened', data: { tenant_id: owner.id, account_id: 'acct_hold_1' } },
    ]);
    const created = await commands.execute(
      new CreateWebhookCommand({
        channel: 'tenant_hold',
        owner,
        url: receiver.endpoint('/held', SECRET),
        events: ['workspace.memo_updated'],
        secret: SECRET,
      }),
    );
    const publish = (id: string) =>
      store.append(`holdsrc-${id}`, [
        {
          type: 'TestHoldEventRecorded',
          data: {
            tenant_id: owner.id,
            envelope: { id, type: 'workspace.memo_updated', created: clock.now().toISOString(), data: {} },
          },
        },
      ]);
    await publish('evt_HOLD0000000000000000000001');
    await publish('evt_HOLD0000000000000000000002');
    const dispatcher = api.app.get(WebhookDispatchers).get('tenant_hold');
    await dispatcher.drain();
    assert.equal(receiver.at('/held').length, 0);
    const list = async () =>
      (await queries.execute(new ListDeliveriesQuery('tenant_hold', owner, created.id, 10))).data;
    for (const d of await list()) {
      assert.equal(d.state, 'held');
      assert.equal(d.attempts.length, 0, 'a hold is not an attempt');
      assert.equal(d.next_attempt_at, null, 'a held delivery is out of the schedule');
    }
    const meter = api.app.get(HoldingMeter);
    // Time passes: nothing is retried against the schedule.
    clock.advance(3 * 3600_000);
    await dispatcher.drain();
    assert.equal(receiver.at('/held').length, 0);
    assert.equal(meter.charged.length, 0);
    const webhook = await api.app.get(WebhookReadModel).webhook('tenant_hold', owner, created.id);
    assert.equal(webhook.held_count, 2);

    // Credits arrive for the tenant's account: both go out, once each.
    meter.credits = 2;
    await store.append('testcredits-acct_hold_1', [
      { type: 'TestCreditsArrived', data: { account_id: 'acct_hold_1' } },
    ]);
    await dispatcher.drain();
    assert.equal(receiver.at('/held').length, 2);
    assert.deepEqual(
      new Set(receiver.at('/held').map((r) => r.headers['x-service-delivery'])).size,
      2,
      'each held delivery sent once',
    );
    assert.equal(meter.charged.length, 2);
    assert.deepEqual(
      meter.settled.map((s) => s.ok),
      [true, true],
    );
    for (const d of await list()) {
      assert.equal(d.state, 'succeeded');
      assert.equal(d.attempts.length, 1);
    }
    assert.equal((await api.app.get(WebhookReadModel).webhook('tenant_hold', owner, created.id))?.held_count, 0);
    // Credits of an account that is no alias of this owner release nothing (and break nothing).
    await store.append('testcredits-other', [{ type: 'TestCreditsArrived', data: { account_id: 'acct_unknown' } }]);
    await dispatcher.drain();
    assert.equal(receiver.at('/held').length, 2);
  });

  it('releases at once when the credits came between the refusal and the hold (afterHold answers true)', async () => {
    const store = api.app.get<EventStore>(EVENT_STORE);
    const meter = api.app.get(HoldingMeter);
    meter.credits = 0;
    meter.arrivedMeanwhile = true;
    const before = receiver.at('/held').length;
    await store.append('holdsrc-evt_HOLD0000000000000000000003', [
      {
        type: 'TestHoldEventRecorded',
        data: {
          tenant_id: owner.id,
          envelope: {
            id: 'evt_HOLD0000000000000000000003',
            type: 'workspace.memo_updated',
            created: clock.now().toISOString(),
            data: {},
          },
        },
      },
    ]);
    const dispatcher = api.app.get(WebhookDispatchers).get('tenant_hold');
    await dispatcher.drain();
    assert.equal(receiver.at('/held').length, before + 1, 'sent after its own release, with no credit event');
    const released = [];
    for await (const e of store.readStream(`webhookrelease-tenant_hold-${owner.id}`)) released.push(e.type);
    assert.deepEqual(released, ['WebhookDeliveriesReleased']);
  });
});
