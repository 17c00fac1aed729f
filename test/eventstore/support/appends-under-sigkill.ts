import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SqliteEventStore, type RecordedEvent } from '#eventstore';

const writerScript = fileURLToPath(new URL('../crash-writer.js', import.meta.url));

interface Ack {
  stream: string;
  firstRevision: number;
  ids: string[];
}

export interface AppendsUnderSigkillFigures {
  rounds: number;
  /** Appends the writer acknowledged (printed after COMMIT) before each kill, summed. */
  acknowledged: number;
  /** Appends found whole in the store after the kills (acknowledged or not). */
  stored: number;
  /** Events read back and checked. */
  events: number;
  ms: number;
}

/** Runs the writer until it has acknowledged some appends, then SIGKILLs it at a random moment. */
async function runAndKill(path: string, prefix: string): Promise<Ack[]> {
  const child = spawn(process.execPath, [writerScript, path, prefix], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  // Wait (bounded) until the load is running, then let it run a random while before the kill.
  const deadline = Date.now() + 15_000;
  while ((out.match(/^ack /gm)?.length ?? 0) < 50) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`writer did not get going (exit ${child.exitCode}): ${err}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 300));
  assert.equal(child.exitCode, null, `the writer was still running when killed: ${err}`);
  child.kill('SIGKILL');
  const { signal } = await exited;
  assert.equal(signal, 'SIGKILL');
  // A last line without its newline was cut by the kill mid-print: only whole lines count.
  return out
    .split('\n')
    .slice(0, -1)
    .filter((line) => line.startsWith('ack '))
    .map((line) => {
      const [, stream, first, ids] = line.split(' ');
      return { stream: stream!, firstRevision: Number(first), ids: ids!.split(',') };
    });
}

/**
 * Appends under SIGKILL: a writer process appends multi-event batches under
 * concurrent load to one SQLite file and is SIGKILLed at a random moment, `rounds` times on the
 * same file (each reopen also recovers the WAL the previous kill left). After each kill every
 * acknowledged append is there, no stream has a gap and no append is torn. Throws (an assertion
 * error naming the round) on the first break. Shared by test/eventstore/crash.int.spec.ts and
 * the `appends-sigkill` chaos scenario.
 */
export async function appendsUnderSigkill(rounds: number): Promise<AppendsUnderSigkillFigures> {
  const started = performance.now();
  const dir = await mkdtemp(join(tmpdir(), 'es-crash-'));
  const path = join(dir, 'svc.sqlite');
  const figures: AppendsUnderSigkillFigures = { rounds, acknowledged: 0, stored: 0, events: 0, ms: 0 };
  try {
    for (let round = 0; round < rounds; round++) {
      const prefix = `crash${round}`;
      const acks = await runAndKill(path, prefix);
      assert.ok(acks.length >= 50);
      figures.acknowledged += acks.length;

      const store = new SqliteEventStore({ path });
      try {
        const byStream = new Map<string, RecordedEvent[]>();
        for await (const e of store.readAll({ filter: { streamPrefixes: [`${prefix}-`] } })) {
          const events = byStream.get(e.stream) ?? [];
          events.push(e);
          byStream.set(e.stream, events);
          figures.events++;
        }

        for (const ack of acks) {
          const events = byStream.get(ack.stream) ?? [];
          const found = events.slice(ack.firstRevision, ack.firstRevision + ack.ids.length).map((e) => e.id);
          assert.deepEqual(
            found,
            ack.ids,
            `round ${round}: acknowledged append to ${ack.stream}@${ack.firstRevision} is there`,
          );
        }

        let appends = 0;
        for (const [stream, events] of byStream) {
          // No gap: revisions run 0..n-1 in position order.
          events.forEach((e, i) => assert.equal(e.revision, i, `round ${round}: ${stream} has no gap at ${i}`));
          // No torn write: every append's events are all there, consecutive, in order.
          for (let i = 0; i < events.length;) {
            const head = events[i]!.data as { append: string; index: number; count: number };
            assert.equal(head.index, 0, `round ${round}: ${stream}@${i} starts an append`);
            for (let j = 0; j < head.count; j++) {
              const part = events[i + j]?.data as { append: string; index: number } | undefined;
              assert.deepEqual(
                [part?.append, part?.index],
                [head.append, j],
                `round ${round}: append ${head.append} is whole`,
              );
            }
            i += head.count;
            appends++;
          }
        }
        assert.ok(appends >= acks.length, 'at least every acknowledged append is stored');
        figures.stored += appends;
      } finally {
        await store.close();
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  figures.ms = Math.round(performance.now() - started);
  return figures;
}
