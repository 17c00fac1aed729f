import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { EVENT_STORE, type EventStore } from '#eventstore';
import { BOOTSTRAP_LINE_PREFIX, BOOTSTRAP_STREAM, PlatformBootstrap } from '#identity';
import { ProjectionRunner } from '#projections';
import { startTestApi, waitUntil } from '../api/support/test-api.js';
import { bearer } from './support/platform-fixtures.js';

async function streamTypes(store: EventStore, stream: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of store.readStream(stream)) out.push(e.type);
  return out;
}

describe('D4 bootstrap (in process; the built api is covered by the e2e test)', () => {
  let dataDir: string;
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'svc-bootstrap-'));
  });
  after(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('creates one Team account with an admin key once, even when started concurrently, and prints the key line once', async () => {
    const api = await startTestApi({ dataDir });
    try {
      const bootstrap = api.app.get(PlatformBootstrap);
      const printed: string[] = [];
      const outcomes = await Promise.all([0, 1, 2].map(() => bootstrap.run((line) => printed.push(line))));
      const created = outcomes.filter((o) => o.created);
      assert.equal(created.length, 1);
      assert.equal(printed.length, 1);
      const key = created[0]!.created ? created[0]!.key : '';
      assert.equal(printed[0], `${BOOTSTRAP_LINE_PREFIX}${key}`);
      assert.match(printed[0]!, /^Bootstrap admin API key: svc_test_[0-9A-Za-z]{38}$/);

      const events = api.app.get<EventStore>(EVENT_STORE);
      assert.deepEqual(await streamTypes(events, BOOTSTRAP_STREAM), ['BootstrapClaimed', 'BootstrapCompleted']);

      // The line is printed once the read models have the key: it works on its first request,
      // as an admin key of a Team account.
      const account = await fetch(`${api.url}/v1/account`, { headers: bearer(key) });
      assert.equal(account.status, 200);
      const body = (await account.json()) as { plan: string; limits: unknown };
      assert.equal(body.plan, 'team');
      assert.deepEqual(body.limits, { per_minute: 300, per_hour: 10000 });
      const keys = (await (await fetch(`${api.url}/v1/api-keys`, { headers: bearer(key) })).json()) as {
        data: Array<{ scopes: string[] }>;
      };
      assert.deepEqual(
        keys.data.map((k) => k.scopes),
        [['admin']],
      );
    } finally {
      await api.close();
    }
  });

  it('does nothing on a restart of the same store', async () => {
    const api = await startTestApi({ dataDir });
    try {
      const printed: string[] = [];
      const outcome = await api.app.get(PlatformBootstrap).run((line) => printed.push(line));
      assert.equal(outcome.created, false);
      assert.equal(outcome.created === false && outcome.state, 'completed');
      assert.deepEqual(printed, []);
    } finally {
      await api.close();
    }
  });

  it('a claim left incomplete by a crash is not redone (no second admin key); it is reported', async () => {
    const fresh = await mkdtemp(join(tmpdir(), 'svc-bootstrap-crash-'));
    const api = await startTestApi({ dataDir: fresh });
    try {
      const events = api.app.get<EventStore>(EVENT_STORE);
      // What a process killed right after its claim leaves behind.
      await events.append(
        BOOTSTRAP_STREAM,
        [
          {
            type: 'BootstrapClaimed',
            data: {
              account_id: 'acct_01JCRASHED0000000000000000',
              key_id: 'key_01JCRASHED0000000000000000',
              claimed_at: new Date().toISOString(),
            },
          },
        ],
        'no_stream',
      );
      const printed: string[] = [];
      const outcome = await api.app.get(PlatformBootstrap).run((line) => printed.push(line));
      assert.deepEqual(outcome, {
        created: false,
        state: 'incomplete',
        accountId: 'acct_01JCRASHED0000000000000000',
        keyId: 'key_01JCRASHED0000000000000000',
      });
      assert.deepEqual(printed, []);
      assert.deepEqual(await streamTypes(events, 'account-acct_01JCRASHED0000000000000000'), []);
    } finally {
      await api.close();
      await rm(fresh, { recursive: true, force: true });
    }
  });

  it('with no projections running anywhere, prints the key after the bounded wait; it works once they run', async () => {
    const fresh = await mkdtemp(join(tmpdir(), 'svc-bootstrap-noproj-'));
    const api = await startTestApi({
      dataDir: fresh,
      env: { SVC_RUN_PROJECTIONS: 'false', SVC_READ_YOUR_WRITES_TIMEOUT_MS: '300' },
    });
    try {
      const printed: string[] = [];
      const started = performance.now();
      const outcome = await api.app.get(PlatformBootstrap).run((line) => printed.push(line));
      assert.equal(outcome.created, true);
      assert.equal(printed.length, 1, 'printed anyway');
      assert.ok(performance.now() - started >= 250, 'after waiting for the read models');
      const key = outcome.created ? outcome.key : '';
      assert.equal((await fetch(`${api.url}/v1/account`, { headers: bearer(key) })).status, 401, 'not projected yet');
      // The projections start (as a worker would): the key works.
      await api.app.get(ProjectionRunner).start();
      const account = await waitUntil(
        async () => {
          const res = await fetch(`${api.url}/v1/account`, { headers: bearer(key) });
          return res.status === 401 ? undefined : res;
        },
        5000,
        'the key once projected',
      );
      assert.equal(account.status, 200);
    } finally {
      await api.close();
      await rm(fresh, { recursive: true, force: true });
    }
  });
});
