import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { client } from '../webhooks/support/http-client.js';
import { LiveProcess } from './support/processes.js';

const TEAM_PER_MINUTE = 300;
const MINUTE = 60_000;
/** The api main with its clock moved (TEST_CLOCK_OFFSET_MS): the same app, config and storage. */
const SHIFTED_CLOCK_API_MAIN = fileURLToPath(new URL('./support/shifted-clock-api.main.js', import.meta.url));

async function startApi(env: Record<string, string>): Promise<{ process: LiveProcess; url: string }> {
  const process = LiveProcess.start(SHIFTED_CLOCK_API_MAIN, [], {
    ...env,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
  });
  const line = await process.waitForLine((l) => l.includes('listening on http://'), 60_000, 'the api');
  return { process, url: /listening on (http:\/\/[^\s"]+)/.exec(line)![1]! };
}

/**
 * D7 across two api processes on one embedded data directory (ADR 0067): an account's budget is
 * one, whichever process answers. The counters live in the data directory (rate-limits.sqlite);
 * each process adds its hits every 100 ms, so the two together admit the limit plus at most what
 * one admits in an interval before it sees the other's hits — never the limit once per process.
 * The processes run the api's app as its main does, with their clock moved to a minute's start.
 */
describe('rate limits across two api processes on one data directory (built app, moved clock)', () => {
  let dataDir: string;
  const apis: LiveProcess[] = [];
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'svc-e2e-rate-limits-'));
  });
  after(async () => {
    for (const api of apis) await api.stop('SIGTERM');
    await rm(dataDir, { recursive: true, force: true });
  });

  it("an account's per-minute budget is shared: alternating between the processes, the 429 comes after the limit, not twice it", async () => {
    // Both processes' clocks are moved alike, to read the start of a minute as they start: the
    // run below falls in one minute window (D7) without waiting for the wall clock's next minute.
    const offsetMs = MINUTE - (Date.now() % MINUTE);
    const serviceNow = () => Date.now() + offsetMs;
    const env = { SVC_DATA_DIR: dataDir, SVC_DEMO_DATA: 'false', TEST_CLOCK_OFFSET_MS: String(offsetMs) };
    const a = await startApi({ ...env, SVC_BOOTSTRAP: 'true' });
    apis.push(a.process);
    const keyLine = await a.process.waitForLine((l) => l.startsWith('Bootstrap admin API key: '), 60_000, 'the key');
    const key = keyLine.slice('Bootstrap admin API key: '.length).trim();
    // Both run projections (the embedded default): one of them holds each projection's lease.
    const b = await startApi({ ...env, SVC_BOOTSTRAP: 'false' });
    apis.push(b.process);
    const calls = [client(a.url, key), client(b.url, key)];
    assert.equal((await calls[1]!('GET', '/v1/repositories')).status, 200, 'the key works on the second process');
    const checkedMinute = Math.floor(serviceNow() / MINUTE);

    // All within one minute window: the processes started at its beginning. Only a machine so
    // starved that starting them took half a minute waits for the next one (on the service's clock).
    if (serviceNow() % MINUTE > MINUTE / 2)
      await new Promise((r) => setTimeout(r, MINUTE - (serviceNow() % MINUTE) + 1000));
    const startedMinute = Math.floor(serviceNow() / MINUTE);
    // The call above counts in this window if it was made in this minute.
    let admitted = checkedMinute === startedMinute ? 1 : 0;
    let first429 = -1;
    for (let i = 0; i < 2 * TEAM_PER_MINUTE && first429 < 0; i++) {
      const res = await calls[i % 2]!('GET', '/v1/repositories');
      if (res.status === 200) admitted++;
      else {
        assert.equal(res.status, 429, res.text);
        // Refused in the minute window of the service's (moved) clock: it ends with that minute.
        assert.equal(res.headers.get('x-ratelimit-reset'), String(((startedMinute + 1) * MINUTE) / 1000));
        first429 = i;
      }
    }
    assert.equal(Math.floor(serviceNow() / MINUTE), startedMinute, 'the run stayed within one minute window');
    process.stdout.write(
      `# rate limits: ${admitted} admitted across two processes for a limit of ${TEAM_PER_MINUTE}/min\n`,
    );
    assert.ok(first429 >= 0, `no 429 after ${admitted} requests: each process counted alone`);
    assert.ok(admitted >= TEAM_PER_MINUTE - 2, `only ${admitted} admitted: counts were lost or doubled`);
    assert.ok(admitted <= TEAM_PER_MINUTE + 60, `${admitted} admitted: far more than one sync interval over the limit`);
    // Once the processes have synced (every 100 ms), both refuse: polled for up to 5 s, since a
    // starved process may flush its hits late.
    for (const call of calls) {
      const deadline = Date.now() + 5000;
      let res = await call('GET', '/v1/repositories');
      while (res.status !== 429 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        res = await call('GET', '/v1/repositories');
      }
      assert.equal(res.status, 429, res.text);
      assert.equal(res.headers.get('x-ratelimit-remaining'), '0');
    }
  });
});
