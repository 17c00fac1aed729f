import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { SqliteEventStore, type RecordedEvent } from '#eventstore';

const writerScript = fileURLToPath(new URL('./crash-writer.js', import.meta.url));

describe('SqliteEventStore across processes', () => {
  let dir: string;
  let path: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'es-xproc-'));
    path = join(dir, 'svc.sqlite');
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it("a subscription receives another process's appends live, in order, with no gap or duplicate", async () => {
    const store = new SqliteEventStore({ path });
    const subscription = store.subscribeToAll({ filter: { streamPrefixes: ['xp-'] } });
    const child = spawn(process.execPath, [writerScript, path, 'xp'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    const received: RecordedEvent[] = [];
    try {
      const deadline = setTimeout(() => void subscription.close(), 15_000);
      for await (const e of subscription) {
        received.push(e);
        if (received.length >= 500) break;
      }
      clearTimeout(deadline);
      assert.ok(received.length >= 500, `only ${received.length} events arrived from the writer process: ${err}`);
    } finally {
      child.kill('SIGKILL');
      await new Promise((resolve) =>
        child.exitCode !== null || child.signalCode !== null ? resolve(null) : child.on('exit', resolve),
      );
    }
    // What arrived live is exactly the start of what is stored, in position order.
    const stored: RecordedEvent[] = [];
    for await (const e of store.readAll({ filter: { streamPrefixes: ['xp-'] }, maxCount: received.length }))
      stored.push(e);
    assert.deepEqual(
      received.map((e) => e.position),
      stored.map((e) => e.position),
    );
    await store.close();
  });
});
