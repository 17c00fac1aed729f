import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { svcInProcess as svc } from '../e2e/support/cli-in-process.js';
import { API_MAIN, LiveProcess } from '../e2e/support/processes.js';
import { pay, postJson, status, withKey } from './support/agent-client.js';

const json = (out: string) => JSON.parse(out) as Record<string, unknown>;

/** Polls `check` until it holds (read models apply events asynchronously); never a fixed sleep. */
async function until(check: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('svc credits grant (the CLI in process beside the built api)', () => {
  let dir: string;
  let env: Record<string, string>;
  let api: LiveProcess;
  let url: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-e2e-grant-'));
    env = { SVC_DATA_DIR: join(dir, 'data') };
    api = LiveProcess.start(API_MAIN, [], { ...env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' });
    const line = await api.waitForLine((l) => l.includes('listening on http://'), 60_000, 'the listening line');
    url = /listening on (http:\/\/[^\s"]+)/.exec(line)![1]!;
  });
  after(async () => {
    await api.stop('SIGTERM');
    await rm(dir, { recursive: true, force: true });
  });

  const grant = (key: string, usd: string, reference: string) =>
    svc(['credits', 'grant', '--key', key, '--usd', usd, '--reference', reference], env);

  it('grants once per reference; the api shows the balance and the ledger entry; bad input exits 2 and changes nothing', async () => {
    const issued = await pay(url);
    assert.equal((await status(url, issued.key.api_key)).balance_usd, 0);

    const first = await grant(issued.key.id, '250', 'PO-1234');
    assert.equal(first.code, 0, first.stderr);
    assert.deepEqual(json(first.stdout), {
      account_id: issued.account_id,
      key_id: issued.key.id,
      granted_usd: 250,
      reference: 'PO-1234',
      balance_usd: 250,
      granted: true,
    });
    assert.equal(first.stdout.trimEnd().split('\n').length, 1);

    const again = await grant(issued.key.id, '250', 'PO-1234');
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(json(again.stdout), {
      account_id: issued.account_id,
      key_id: issued.key.id,
      granted_usd: 0,
      reference: 'PO-1234',
      balance_usd: 250,
      granted: false,
    });

    // The running api reads the balance fresh from the ledger: the grant is there, once.
    const s = await status(url, issued.key.api_key);
    assert.equal(s.balance_usd, 250);
    assert.equal(s.granted_usd, 250);
    assert.equal(s.purchased_usd, 0);
    const grants = s.recent_ledger.filter((e: { type: string }) => e.type === 'CreditsGranted');
    assert.equal(grants.length, 1);
    assert.equal(grants[0].reference, 'PO-1234');
    assert.equal(grants[0].amount_usd, 250);
    assert.equal(grants[0].granted_by, 'operator');
    assert.equal(grants[0].key_id, issued.key.id);

    // Bad usage: exit 2 with a message and the usage text.
    for (const [usd, reference, message] of [
      ['1.234', 'PO-9', /--usd expects an amount in USD above 0 and at most 1000000, with at most two decimals/],
      ['0', 'PO-9', /--usd expects/],
      ['1000000.01', 'PO-9', /--usd expects/],
      ['250', ' ', /--reference TEXT is required/],
      ['250', 'r'.repeat(201), /--reference must be at most 200 characters/],
    ] as const) {
      const bad = await grant(issued.key.id, usd, reference);
      assert.equal(bad.code, 2, `${usd} ${reference}: ${bad.stderr}`);
      assert.match(bad.stderr, message);
      assert.match(bad.stderr, /Usage: svc/);
      assert.equal(bad.stdout, '');
    }
    const unknown = await grant('key_doesnotexist000000000000', '250', 'PO-9');
    assert.equal(unknown.code, 2, unknown.stderr);
    assert.match(unknown.stderr, /--key key_doesnotexist0+: No active agent key with that id\./);

    // A revoked agent key names no account to credit.
    const rotated = await fetch(`${url}/api/v1/agents/keys`, withKey(issued.key.api_key, postJson({ name: 'next' })));
    assert.equal(rotated.status, 201);
    const next = ((await rotated.json()) as { key: { id: string; api_key: string } }).key;
    const revoked = await fetch(
      `${url}/api/v1/agents/keys/${issued.key.id}`,
      withKey(next.api_key, { method: 'DELETE' }),
    );
    assert.equal(revoked.status, 204);
    const viaRevoked = await grant(issued.key.id, '250', 'PO-9');
    assert.equal(viaRevoked.code, 2, viaRevoked.stderr);
    assert.match(viaRevoked.stderr, /No active agent key with that id/);

    // A platform key is no agent key, once the api's read model knows it.
    const account = await svc(['accounts', 'create', '--plan', 'team', '--name', 'Platform Co'], env);
    assert.equal(account.code, 0, account.stderr);
    const platformKey = await svc(
      ['keys', 'create', '--account', json(account.stdout).account_id as string, '--scopes', 'read', '--name', 'ci'],
      env,
    );
    assert.equal(platformKey.code, 0, platformKey.stderr);
    const pk = json(platformKey.stdout) as { id: string; key: string };
    await until(
      async () => (await fetch(`${url}/v1/agent-templates`, { headers: { authorization: `Bearer ${pk.key}` } })).ok,
      'the api to know the platform key',
    );
    const viaPlatform = await grant(pk.id, '250', 'PO-9');
    assert.equal(viaPlatform.code, 2, viaPlatform.stderr);
    assert.match(viaPlatform.stderr, /No active agent key with that id/);

    // The account's ledger holds exactly the one grant: nothing refused was appended.
    const tail = await svc(['events', 'tail', '--stream', `credits-${issued.account_id}`], env);
    assert.equal(tail.code, 0, tail.stderr);
    const ledger = tail.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; data: Record<string, unknown> });
    assert.deepEqual(
      ledger.map((e) => e.type),
      ['CreditsGranted'],
    );
    assert.deepEqual(
      { ...ledger[0]!.data, granted_at: undefined },
      {
        account_id: issued.account_id,
        credits_cents: 25_000,
        reference: 'PO-1234',
        key_id: issued.key.id,
        granted_by: 'operator',
        granted_at: undefined,
      },
    );
    assert.equal((await status(url, next.api_key)).balance_usd, 250);
  });
});
