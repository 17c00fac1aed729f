import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { API_MAIN, LiveProcess, run } from './support/processes.js';

describe('the api process (built main)', () => {
  let dataDir: string;
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'svc-e2e-api-'));
  });
  after(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('refuses a bad setting: exit 1 and one line naming the variable, no stack trace', async () => {
    const result = await run(API_MAIN, [], { PORT: 'abc', SVC_DATA_DIR: dataDir });
    assert.equal(result.code, 1);
    const lines = result.stderr.trimEnd().split('\n');
    assert.equal(lines.length, 1, result.stderr);
    assert.match(lines[0]!, /PORT/);
    assert.doesNotMatch(result.stderr, /\bat \S+ \(/);
  });

  it('serves on the given port, logs its URL, and stops cleanly on SIGTERM', async () => {
    const api = LiveProcess.start(API_MAIN, [], {
      PORT: '0',
      HOST: '127.0.0.1',
      SVC_DATA_DIR: join(dataDir, 'fresh'),
      LOG_LEVEL: 'info',
    });
    try {
      const line = await api.waitForLine((l) => l.includes('listening on http://'), 60_000, 'the listening line');
      const url = /listening on (http:\/\/[^\s"]+)/.exec(line)![1]!;
      const health = await fetch(`${url}/health`);
      assert.equal(health.status, 200);
      // Structured logs: every line is JSON; the request was logged with its id.
      await api.waitForLine((l) => l.includes('"url":"/health"'), 15_000, 'the request log line');
      // (The D4 bootstrap key line is deliberately plain text, on a line of its own.)
      for (const l of api.lines.filter((l) => !l.startsWith('Bootstrap admin API key: ')))
        assert.doesNotThrow(() => JSON.parse(l), l);
    } finally {
      const [code, signal] = await api.stop('SIGTERM');
      assert.ok(code === 0 || signal === 'SIGTERM', `exit ${code ?? signal}; stderr: ${api.stderr}`);
    }
    assert.equal(api.stderr, '');
    assert.ok(
      api.lines.some((l) => l.includes('stores closed')),
      'the storage module closed the stores on SIGTERM',
    );
  });

  it('a start that cannot bind its port creates no account and prints no key; the next good start prints the key once', async () => {
    const holder = LiveProcess.start(API_MAIN, [], {
      PORT: '0',
      HOST: '127.0.0.1',
      SVC_DATA_DIR: join(dataDir, 'holder'),
      LOG_LEVEL: 'info',
    });
    const store = join(dataDir, 'second');
    try {
      const line = await holder.waitForLine((l) => l.includes('listening on http://'), 60_000, 'the listening line');
      const port = /listening on http:\/\/[^:]+:(\d+)/.exec(line)![1]!;
      const clash = await run(API_MAIN, [], { PORT: port, HOST: '127.0.0.1', SVC_DATA_DIR: store, LOG_LEVEL: 'info' });
      assert.notEqual(clash.code, 0, 'a start on a used port fails');
      assert.match(clash.stderr, /EADDRINUSE/);
      const keyLines = clash.stdout.split('\n').filter((l) => l.startsWith('Bootstrap admin API key: '));
      assert.deepEqual(keyLines, [], 'no key printed by a start that failed');
    } finally {
      await holder.stop('SIGTERM');
    }
    const good = LiveProcess.start(API_MAIN, [], {
      PORT: '0',
      HOST: '127.0.0.1',
      SVC_DATA_DIR: store,
      LOG_LEVEL: 'info',
    });
    try {
      await good.waitForLine((l) => l.startsWith('Bootstrap admin API key: '), 60_000, 'the bootstrap line');
      await good.waitForLine((l) => l.includes('bootstrap: Team account'), 30_000, 'the bootstrap completion');
      assert.equal(good.lines.filter((l) => l.startsWith('Bootstrap admin API key: ')).length, 1);
    } finally {
      await good.stop('SIGTERM');
    }
  });
});
