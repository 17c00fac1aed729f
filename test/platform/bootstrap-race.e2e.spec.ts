import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { API_MAIN, LiveProcess } from '../e2e/support/processes.js';

const BOOTSTRAP_LINE = /^Bootstrap admin API key: (svc_test_[0-9A-Za-z]{38})$/;

function startApi(dataDir: string): LiveProcess {
  return LiveProcess.start(API_MAIN, [], { PORT: '0', HOST: '127.0.0.1', SVC_DATA_DIR: dataDir, LOG_LEVEL: 'info' });
}

async function urlOf(api: LiveProcess): Promise<string> {
  const line = await api.waitForLine((l) => l.includes('listening on http://'), 60_000, 'the listening line');
  return /listening on (http:\/\/[^\s"]+)/.exec(line)![1]!;
}

describe('D4 bootstrap race between processes (built api)', () => {
  let dataDir: string;
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'svc-e2e-bootstrap-race-'));
  });
  after(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('two servers started together on a fresh store print one bootstrap key between them', async () => {
    const [a, b] = [startApi(dataDir), startApi(dataDir)];
    try {
      await Promise.all([urlOf(a), urlOf(b)]);
      // Each bootstraps once it listens: wait until both have said how theirs ended.
      const settled = (l: string) =>
        /bootstrap: (Team account|this store has one already)|claimed but not completed/.test(l);
      await Promise.all([a, b].map((p) => p.waitForLine(settled, 60_000, 'the end of its bootstrap')));
      const lines = [...a.lines, ...b.lines].filter((l) => l.startsWith('Bootstrap admin API key: '));
      assert.equal(lines.length, 1, lines.join('\n'));
      assert.match(lines[0]!, BOOTSTRAP_LINE);
    } finally {
      await Promise.all([a.stop('SIGTERM'), b.stop('SIGTERM')]);
    }
  });
});
