import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { SqliteEventStore } from '#eventstore';
import { CLI_MAIN, LiveProcess, run } from './support/processes.js';

interface Line {
  position: number;
  stream: string;
  revision: number;
  type: string;
  id: string;
  created: string;
  data: unknown;
}
const parseLines = (out: string): Line[] =>
  out
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Line);

describe('svc (the CLI, built main)', () => {
  let dataDir: string;
  let env: Record<string, string>;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'svc-e2e-cli-'));
    env = { SVC_DATA_DIR: dataDir };
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  async function append(events: Array<[stream: string, type: string, data: unknown]>): Promise<void> {
    const store = new SqliteEventStore({ path: join(dataDir, 'svc.sqlite') });
    try {
      for (const [stream, type, data] of events) await store.append(stream, [{ type, data }]);
    } finally {
      await store.close();
    }
  }

  it('prints usage and exits 2 on bad usage, 1 with one line on a bad setting', async () => {
    const bad = await run(CLI_MAIN, ['frobnicate'], env);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /unknown command: frobnicate/);
    assert.match(bad.stderr, /Usage: svc/);
    const config = await run(CLI_MAIN, ['projections', 'status'], { ...env, MONGODB_URL: 'postgres://x' });
    assert.equal(config.code, 1);
    assert.equal(config.stderr.trimEnd().split('\n').length, 1, config.stderr);
    assert.match(config.stderr, /MONGODB_URL/);
  });

  it('events tail prints appended events as JSON lines', async () => {
    await append([
      ['credits-acct_1', 'CreditsPurchased', { cents: 2900 }],
      ['credits-acct_2', 'CreditsPurchased', { cents: 9900 }],
      ['credits-acct_1', 'MeterCharged', { cents: 350 }],
    ]);
    const all = await run(CLI_MAIN, ['events', 'tail', '--type-prefix', 'Credits'], env);
    assert.equal(all.code, 0, all.stderr);
    const lines = parseLines(all.stdout);
    assert.deepEqual(
      lines.map((l) => [l.stream, l.revision, l.type, l.data]),
      [
        ['credits-acct_1', 0, 'CreditsPurchased', { cents: 2900 }],
        ['credits-acct_2', 0, 'CreditsPurchased', { cents: 9900 }],
      ],
    );
    assert.deepEqual(Object.keys(lines[0]!).sort(), [
      'created',
      'data',
      'id',
      'position',
      'revision',
      'stream',
      'type',
    ]);
    assert.ok(lines[0]!.position < lines[1]!.position);
  });

  it('events tail --follow prints events another process appends, until interrupted', async () => {
    await append([['s-1', 'Before', {}]]);
    const tail = LiveProcess.start(CLI_MAIN, ['events', 'tail', '--follow'], env);
    try {
      await tail.waitForLine((l) => l.includes('"Before"'), 60_000, 'the existing event');
      await append([['s-2', 'After', { n: 1 }]]);
      const line = await tail.waitForLine((l) => l.includes('"After"'), 10_000, 'the appended event');
      assert.equal((JSON.parse(line) as Line).stream, 's-2');
    } finally {
      const [code] = await tail.stop('SIGINT');
      assert.equal(code, 0, tail.stderr);
    }
  });

  it('projections status and rebuild run on a store with no projections registered', async () => {
    const status = await run(CLI_MAIN, ['projections', 'status'], env);
    assert.equal(status.code, 0, status.stderr);
    const rebuild = await run(CLI_MAIN, ['projections', 'rebuild'], env);
    assert.equal(rebuild.code, 0, rebuild.stderr);
    const unknown = await run(CLI_MAIN, ['projections', 'rebuild', 'no-such-projection'], env);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /no-such-projection/);
  });
});
