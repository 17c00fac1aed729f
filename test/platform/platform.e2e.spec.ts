import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { API_MAIN, CLI_MAIN, LiveProcess, run } from '../e2e/support/processes.js';

const BOOTSTRAP_LINE = /^Bootstrap admin API key: (svc_test_[0-9A-Za-z]{38})$/;

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

function startApi(dataDir: string): LiveProcess {
  return LiveProcess.start(API_MAIN, [], { PORT: '0', HOST: '127.0.0.1', SVC_DATA_DIR: dataDir, LOG_LEVEL: 'info' });
}

async function urlOf(api: LiveProcess): Promise<string> {
  const line = await api.waitForLine((l) => l.includes('listening on http://'), 60_000, 'the listening line');
  return /listening on (http:\/\/[^\s"]+)/.exec(line)![1]!;
}

const bearer = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });

describe('platform access end to end (built api and CLI)', () => {
  let dataDir: string;
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'svc-e2e-platform-'));
  });
  after(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('prints the bootstrap admin key once on a fresh store; the key, the CLI and revocation work; a restart prints nothing', async () => {
    const api = startApi(dataDir);
    let key: string;
    try {
      const line = await api.waitForLine(
        (l) => l.startsWith('Bootstrap admin API key: '),
        20_000,
        'the bootstrap line',
      );
      assert.match(line, BOOTSTRAP_LINE, 'the key alone on its line');
      key = BOOTSTRAP_LINE.exec(line)![1]!;
      const url = await urlOf(api);

      const account = await until(
        'the bootstrap key to work',
        async () => {
          const res = await fetch(`${url}/v1/account`, bearer(key));
          return res.status === 200 ? ((await res.json()) as { id: string; plan: string }) : undefined;
        },
        20_000,
      );
      assert.equal(account.plan, 'team');
      const keys = (await (await fetch(`${url}/v1/api-keys`, bearer(key))).json()) as {
        data: Array<{ scopes: string[] }>;
      };
      assert.deepEqual(
        keys.data.map((k) => k.scopes),
        [['admin']],
      );

      // The CLI works on the same data while the server runs.
      const created = await run(CLI_MAIN, ['accounts', 'create', '--plan', 'free', '--name', 'E2E'], {
        SVC_DATA_DIR: dataDir,
      });
      assert.equal(created.code, 0, created.stderr);
      const { account_id: accountId } = JSON.parse(created.stdout) as { account_id: string };
      assert.match(accountId, /^acct_/);
      const issued = await run(
        CLI_MAIN,
        ['keys', 'create', '--account', accountId, '--scopes', 'read', '--name', 'e2e'],
        { SVC_DATA_DIR: dataDir },
      );
      assert.equal(issued.code, 0, issued.stderr);
      const cliKey = JSON.parse(issued.stdout) as { id: string; key: string; scopes: string[] };
      assert.deepEqual(cliKey.scopes, ['read']);
      const limited = await until(
        'the CLI key to work on the server',
        async () => {
          const res = await fetch(`${url}/v1/repositories`, bearer(cliKey.key));
          return res.status === 200 ? res : undefined;
        },
        20_000,
      );
      assert.equal(limited.headers.get('x-ratelimit-limit'), '60', 'the Free plan');

      const revoked = await run(CLI_MAIN, ['keys', 'revoke', '--id', cliKey.id], { SVC_DATA_DIR: dataDir });
      assert.equal(revoked.code, 0, revoked.stderr);
      const code = await until(
        'the server to refuse the revoked key',
        async () => {
          const res = await fetch(`${url}/v1/repositories`, bearer(cliKey.key));
          return res.status === 401 ? ((await res.json()) as { code: string }).code : undefined;
        },
        20_000,
      );
      assert.equal(code, 'REVOKED_KEY');

      const bad = await run(
        CLI_MAIN,
        ['keys', 'create', '--account', accountId, '--scopes', 'read,root', '--name', 'x'],
        { SVC_DATA_DIR: dataDir },
      );
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /unknown scope "root"/);
      assert.match(bad.stderr, /Usage: svc/);
    } finally {
      await api.stop('SIGTERM');
    }

    const again = startApi(dataDir);
    try {
      const url = await urlOf(again);
      assert.equal(
        (await fetch(`${url}/v1/account`, bearer(key))).status,
        200,
        'the bootstrap key survives the restart',
      );
      assert.ok(!again.lines.some((l) => l.startsWith('Bootstrap admin API key')), 'no second bootstrap');
    } finally {
      await again.stop('SIGTERM');
    }
  });
});
