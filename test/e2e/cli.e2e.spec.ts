import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { SqliteEventStore } from '#eventstore';
import { svcInProcess as svc } from './support/cli-in-process.js';
import { API_MAIN, childEnv, CLI_MAIN, LiveProcess, ROOT, run } from './support/processes.js';

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

// The process's own behaviour (exit status, streams, Ctrl-C, npm and the bin) goes through real starts
// of the built main; what a command prints and answers runs in this process (runCli, ADR 0097).
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
    const all = await svc(['events', 'tail', '--type-prefix', 'Credits'], env);
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
    const status = await svc(['projections', 'status', '--create'], env);
    assert.equal(status.code, 0, status.stderr);
    const rebuild = await svc(['projections', 'rebuild'], env);
    assert.equal(rebuild.code, 0, rebuild.stderr);
    const unknown = await svc(['projections', 'rebuild', 'no-such-projection'], env);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /no-such-projection/);
  });

  it('an unknown command suggests the nearest one and prints only its usage', async () => {
    const result = await svc(['import', 'companies.csv'], env);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /unknown command: import; did you mean svc companies import\?/);
    assert.match(result.stderr, /companies import FILE/);
    assert.doesNotMatch(result.stderr, /events tail|accounts create/, 'only the suggested command');
    const typo = await svc(['projection', 'status'], env);
    assert.equal(typo.code, 2);
    assert.match(typo.stderr, /did you mean svc projections status\?/);
  });

  it('refuses a SVC_DATA_DIR without a store (naming it) and creates nothing, unless --create', async () => {
    const missing = join(dataDir, 'typo');
    const absent = await svc(['projections', 'status'], { SVC_DATA_DIR: missing });
    assert.equal(absent.code, 1);
    assert.equal(absent.stdout, '');
    assert.ok(absent.stderr.includes(`SVC_DATA_DIR ${missing} does not exist`), absent.stderr);
    assert.equal(existsSync(missing), false, 'no directory made');
    const empty = await svc(['accounts', 'create', '--plan', 'team'], env);
    assert.equal(empty.code, 1);
    assert.ok(empty.stderr.includes(`SVC_DATA_DIR ${dataDir} has no store`), empty.stderr);
    assert.equal(existsSync(join(dataDir, 'svc.sqlite')), false, 'no store made');
    const created = await svc(['accounts', 'create', '--plan', 'team', '--create'], env);
    assert.equal(created.code, 0, created.stderr);
    const again = await svc(['events', 'tail'], env);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /AccountCreated/);
  });

  it('projections status reports the projections a running api keeps live (its leases), not "stopped"', async () => {
    const api = LiveProcess.start(API_MAIN, [], { ...env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' });
    try {
      await api.waitForLine((l) => l.includes('listening on http://'), 60_000, 'the listening line');
      // The api takes its leases and catches up in the background: ask until it has (bounded).
      let states: Array<{ name: string; state: string; owner?: { id: string } | null }> = [];
      for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
        const status = await svc(['projections', 'status'], env);
        assert.equal(status.code, 0, status.stderr);
        states = status.stdout
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as (typeof states)[number]);
        if (states.length > 0 && states.every((s) => s.state === 'live')) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.ok(states.length > 0);
      assert.deepEqual(
        states.filter((s) => s.state !== 'live').map((s) => `${s.name}: ${s.state}`),
        [],
        'every projection live',
      );
      assert.ok(
        states.every((s) => s.owner?.id),
        'each names the process that runs it',
      );
    } finally {
      await api.stop('SIGTERM');
    }
    const after = await svc(['projections', 'status'], env);
    assert.ok(
      after.stdout
        .trim()
        .split('\n')
        .every((l) => (JSON.parse(l) as { state: string }).state === 'stopped'),
      'stopped once the api gave its leases back',
    );
  });

  it('is pipeable through npm and installed as a bin: stdout carries only the JSON lines', async () => {
    await append([['credits-acct_1', 'CreditsPurchased', { cents: 2900 }]]);
    const child = spawn('npm', ['run', '--silent', 'svc', '--', 'events', 'tail'], {
      cwd: ROOT,
      env: childEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const [code] = (await once(child, 'exit')) as [number | null];
    assert.equal(code, 0, stderr);
    assert.deepEqual(
      parseLines(stdout).map((l) => l.type),
      ['CreditsPurchased'],
      "every stdout line is the command's JSON (no npm or build lines)",
    );
    const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { bin?: Record<string, string> };
    assert.equal(pkg.bin?.svc, 'dist/apps/cli/src/main.js');
    assert.match(await readFile(CLI_MAIN, 'utf8'), /^#!\/usr\/bin\/env node\n/);
  });
});
