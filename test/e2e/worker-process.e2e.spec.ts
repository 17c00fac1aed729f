import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { LiveProcess, run, WORKER_MAIN } from './support/processes.js';

describe('the worker process (built main)', () => {
  let dataDir: string;
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'svc-e2e-worker-'));
  });
  after(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('refuses a bad setting with one line', async () => {
    const result = await run(WORKER_MAIN, [], { SVC_DATA_DIR: dataDir, EVENTSTORE_URL: 'http://nope' });
    assert.equal(result.code, 1);
    assert.equal(result.stderr.trimEnd().split('\n').length, 1, result.stderr);
    assert.match(result.stderr, /EVENTSTORE_URL/);
  });

  it('runs the projections until SIGTERM, then stops cleanly', async () => {
    const worker = LiveProcess.start(WORKER_MAIN, [], { SVC_DATA_DIR: dataDir, LOG_LEVEL: 'info' });
    try {
      await worker.waitForLine((l) => l.includes('worker started'), 60_000, 'the started line');
    } finally {
      const [code, signal] = await worker.stop('SIGTERM');
      assert.ok(code === 0 || signal === 'SIGTERM', `exit ${code ?? signal}; stderr: ${worker.stderr}`);
    }
    assert.ok(
      worker.lines.some((l) => l.includes('stores closed')),
      worker.lines.join('\n'),
    );
  });
});
