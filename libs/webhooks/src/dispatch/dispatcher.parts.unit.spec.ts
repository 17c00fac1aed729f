import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { WebhookChannel } from '../engine/channel.js';
import { DELIVERIES_RELEASED } from '../engine/delivery.events.js';
import { changesWebhook, watchedEventTypes } from './channel-events.watch.js';
import { DEFAULT_DISPATCHER_SETTINGS, lowWater, resolveDispatcherSettings } from './dispatcher.settings.js';
import { LoopWakeup } from './loop.wakeup.js';

describe('dispatcher settings', () => {
  it('sizes the queue from the concurrency unless given: two rounds of sends, one host at most half', () => {
    const s = resolveDispatcherSettings({ concurrency: 100 });
    assert.equal(s.maxQueued, 200);
    assert.equal(s.maxQueuedPerHost, 100);
    assert.equal(s.perHost, DEFAULT_DISPATCHER_SETTINGS.perHost);
    assert.equal(resolveDispatcherSettings({ concurrency: 1 }).maxQueued, 64, 'at least 64');
    assert.equal(resolveDispatcherSettings({ maxQueued: 10 }).maxQueuedPerHost, 8, 'at least 8 per host');
    const given = resolveDispatcherSettings({ maxQueued: 40, maxQueuedPerHost: 3 });
    assert.deepEqual([given.maxQueued, given.maxQueuedPerHost], [40, 3]);
    assert.equal(lowWater(given), 10);
  });
});

describe('channel events watch', () => {
  it('wakes on the channel source, its releases and the webhook events; only webhook changes drop cached webhooks', () => {
    const channel = {
      source: { storedEventTypes: ['AccountEnvelope'] },
      releases: { releaseEventTypes: ['CreditsPurchased'] },
    } as unknown as WebhookChannel;
    const types = watchedEventTypes(channel);
    for (const t of [
      'AccountEnvelope',
      'CreditsPurchased',
      DELIVERIES_RELEASED,
      'WebhookTestRequested',
      'WebhookDeleted',
    ])
      assert.ok(types.includes(t), t);
    for (const t of ['WebhookUpdated', 'WebhookDisabled', 'WebhookReEnabled', 'WebhookDeleted'])
      assert.equal(changesWebhook(t), true, t);
    for (const t of ['WebhookTestRequested', 'WebhookRedeliveryRequested', DELIVERIES_RELEASED, 'AccountEnvelope'])
      assert.equal(changesWebhook(t), false, t);
  });
});

describe('loop wake-up', () => {
  it('a wake ends the sleep (false); a sleep that runs out says true; a wake with no sleeper does nothing', async () => {
    const w = new LoopWakeup();
    w.wake();
    const woken = w.sleep(60_000);
    w.wake();
    assert.equal(await woken, false);
    assert.equal(await w.sleep(0), true);
  });
});
