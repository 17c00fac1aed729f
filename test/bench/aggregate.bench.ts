// A command on a grown aggregate, printed, not asserted: a webhook whose
// stream holds 100,000 test events (any caller with the webhook can grow it) against a fresh
// webhook, through decideAndAppend with the real webhook decider on the embedded store.
//  - fresh: median µs per RequestTestEvent on a one-event stream;
//  - grown, hot: median µs per command on the 100,000-event stream once this process has folded it;
//  - grown, cold: the one full fold after a start (a new store instance, no cached state).
// Env: BENCH_GROWN_EVENTS (default 100,000), BENCH_COMMANDS (default 500).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decideAndAppend, type EventStore, loadState, SqliteEventStore } from '#eventstore';
import { webhookDecider, type WebhookOwner, webhookStream } from '#webhooks';
import { median, setting } from './support/bench-kit.js';

const GROWN = setting('BENCH_GROWN_EVENTS', 100_000, 2_000);
const COMMANDS = setting('BENCH_COMMANDS', 500, 50);
const owner: WebhookOwner = { kind: 'platform_account', id: 'acct_bench' };

let n = 0;
function testEvent(now: Date) {
  return {
    type: 'RequestTestEvent' as const,
    owner,
    now,
    event: { id: `evt_${n++}`, type: 'webhook.test', created: now.toISOString(), data: { message: 'bench' } },
  };
}

async function createWebhook(store: EventStore, id: string): Promise<void> {
  await decideAndAppend(store, webhookStream(id), webhookDecider, {
    type: 'CreateWebhook',
    webhookId: id,
    channel: 'platform',
    owner,
    url: 'https://example.com/hook',
    events: ['run.completed'],
    secretId: 'sec_bench',
    now: new Date(),
  });
}

/** Median µs of `COMMANDS` test-event commands on the webhook's stream. */
async function commandMicros(store: EventStore, id: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < COMMANDS; i++) {
    const started = performance.now();
    await decideAndAppend(store, webhookStream(id), webhookDecider, testEvent(new Date()));
    times.push((performance.now() - started) * 1000);
  }
  return median(times);
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-aggregate-'));
  const path = join(dir, 'bench.sqlite');
  try {
    let store: EventStore = new SqliteEventStore({ path });
    await createWebhook(store, 'wh_fresh');
    await createWebhook(store, 'wh_grown');
    // The same events the command appends, written in batches (growing it by commands takes minutes).
    const { state } = await loadState(store, webhookStream('wh_grown'), webhookDecider);
    for (let done = 0; done < GROWN; done += 1000) {
      const batch = Array.from(
        { length: Math.min(1000, GROWN - done) },
        () => webhookDecider.decide(testEvent(new Date()), state)[0]!,
      );
      await store.append(webhookStream('wh_grown'), batch);
    }
    await store.close();

    store = new SqliteEventStore({ path });
    const coldStarted = performance.now();
    await decideAndAppend(store, webhookStream('wh_grown'), webhookDecider, testEvent(new Date()));
    const coldMs = performance.now() - coldStarted;
    await decideAndAppend(store, webhookStream('wh_fresh'), webhookDecider, testEvent(new Date()));
    const fresh = await commandMicros(store, 'wh_fresh');
    const grown = await commandMicros(store, 'wh_grown');
    await store.close();
    console.log(
      `aggregate bench: ${GROWN.toLocaleString('en-US')} events on the grown stream, ${COMMANDS} commands each`,
    );
    console.log(`  fresh stream:        ${fresh.toFixed(0)} µs per command (median)`);
    console.log(
      `  grown stream, hot:   ${grown.toFixed(0)} µs per command (median), ${(grown / fresh).toFixed(2)}× fresh`,
    );
    console.log(`  grown stream, cold:  ${coldMs.toFixed(0)} ms for the first command after a start (one full fold)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
