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
});
