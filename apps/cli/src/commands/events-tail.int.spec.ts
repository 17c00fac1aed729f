import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SqliteEventStore } from '#eventstore';
import type { EventsTailCliCommand } from './events-tail.args.js';
import { tailEvents } from './events-tail.command.js';

type Tail = EventsTailCliCommand;
const base: Tail = { kind: 'events-tail', streamPrefixes: [], typePrefixes: [], follow: false };

describe('tailEvents (embedded store)', () => {
  let dir: string;
  let store: SqliteEventStore;
  const positions: number[] = [];

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-tail-'));
    store = new SqliteEventStore({ path: join(dir, 'svc.sqlite') });
    for (const [stream, type] of [
      ['credits-acct_1', 'CreditsPurchased'],
      ['credits-acct_10', 'CreditsPurchased'],
      ['credits-acct_1', 'MeterCharged'],
      ['webhook-wh_1', 'WebhookCreated'],
      ['credits-acct_1', 'MeterCharged'],
    ] as const) {
      positions.push((await store.append(stream, [{ type, data: { stream } }])).position);
    }
  });
  after(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function tail(
    cmd: Partial<Tail>,
  ): Promise<Array<{ position: number; stream: string; type: string; revision: number }>> {
    const lines: string[] = [];
    await tailEvents(store, { ...base, ...cmd }, async (l) => void lines.push(l));
    return lines.map((l) => JSON.parse(l) as { position: number; stream: string; type: string; revision: number });
  }

  it('prints the last events in position order, at most --limit (default 10)', async () => {
    assert.deepEqual(
      (await tail({})).map((e) => e.position),
      positions,
    );
    assert.deepEqual(
      (await tail({ limit: 2 })).map((e) => e.position),
      positions.slice(3),
    );
  });

  it('--stream is exact (not a prefix); --stream-prefix and --type-prefix filter', async () => {
    assert.deepEqual(
      (await tail({ stream: 'credits-acct_1' })).map((e) => e.revision),
      [0, 1, 2],
    );
    assert.deepEqual((await tail({ streamPrefixes: ['credits-'] })).length, 4);
    assert.deepEqual(
      (await tail({ typePrefixes: ['Meter', 'Webhook'] })).map((e) => e.type),
      ['MeterCharged', 'WebhookCreated', 'MeterCharged'],
    );
    assert.deepEqual(
      (await tail({ stream: 'credits-acct_1', typePrefixes: ['Meter'], limit: 1 })).map((e) => e.position),
      [positions[4]],
    );
  });

  it('--from is inclusive and reads forwards, bounded by --limit', async () => {
    assert.deepEqual(
      (await tail({ from: positions[1]! })).map((e) => e.position),
      positions.slice(1),
    );
    assert.deepEqual(
      (await tail({ from: positions[1]!, limit: 2 })).map((e) => e.position),
      positions.slice(1, 3),
    );
  });

  it('--follow with --from --limit catches up, then stops at the limit on live events', async () => {
    const lines: string[] = [];
    const done = tailEvents(
      store,
      { ...base, from: positions[4]!, limit: 2, follow: true },
      async (l) => void lines.push(l),
    );
    // Appended whenever: the subscription catches up from --from, so it is printed either way.
    await store.append('live-1', [{ type: 'Live', data: {} }]);
    assert.equal(await done, 2);
    assert.deepEqual(
      lines.map((l) => (JSON.parse(l) as { stream: string }).stream),
      ['credits-acct_1', 'live-1'],
    );
  });

  it('--follow after a tail prints every live event until aborted', async () => {
    const abort = new AbortController();
    const streams: string[] = [];
    let backlogPrinted!: () => void;
    const printed = new Promise<void>((r) => (backlogPrinted = r));
    const done = tailEvents(
      store,
      { ...base, limit: 1, follow: true },
      async (l) => {
        const { stream } = JSON.parse(l) as { stream: string };
        streams.push(stream);
        backlogPrinted();
        if (stream === 'live-3') abort.abort();
      },
      abort.signal,
    );
    await printed;
    await store.append('live-2', [{ type: 'Live', data: {} }]);
    await store.append('live-3', [{ type: 'Live', data: {} }]);
    assert.equal(await done, 3);
    assert.deepEqual(streams.slice(1), ['live-2', 'live-3']);
  });
});
