import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestApi } from '../api/support/test-api.js';
import { svcInProcess as svc } from '../e2e/support/cli-in-process.js';

describe('svc oauth-clients create (the CLI in process), then the client at /oauth/token', () => {
  let dataDir: string;
  let env: Record<string, string>;
  let accountId: string;
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'svc-e2e-oauth-clients-'));
    env = { SVC_DATA_DIR: dataDir };
    const account = await svc(['accounts', 'create', '--plan', 'team', '--name', 'Acme', '--create'], env);
    assert.equal(account.code, 0, account.stderr);
    accountId = (JSON.parse(account.stdout) as { account_id: string }).account_id;
  });
  after(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  const create = (...args: string[]) => svc(['oauth-clients', 'create', '--account', accountId, ...args], env);

  it('prints {client_id, client_secret, redirect_uris, pkce} as one JSON line; a public client has no secret; the server accepts the secret', async () => {
    const made = await create(
      '--name',
      'CI bot',
      '--redirect-uri',
      'https://ci.example/callback',
      '--redirect-uri',
      'http://127.0.0.1:8080/cb',
    );
    assert.equal(made.code, 0, made.stderr);
    assert.equal(made.stdout.trimEnd().split('\n').length, 1);
    const line = JSON.parse(made.stdout) as {
      client_id: string;
      client_secret: string;
      redirect_uris: string[];
      pkce: string;
    };
    assert.deepEqual(Object.keys(line), ['client_id', 'client_secret', 'redirect_uris', 'pkce']);
    assert.equal(line.pkce, 'required');
    assert.match(line.client_id, /^oac_[0-9A-Z]{26}$/);
    assert.match(line.client_secret, /^ocs_[A-Za-z0-9_-]{43}$/);
    assert.deepEqual(line.redirect_uris, ['https://ci.example/callback', 'http://127.0.0.1:8080/cb']);

    const pub = await create('--name', 'SPA', '--redirect-uri', 'https://spa.example/cb', '--public');
    assert.equal(pub.code, 0, pub.stderr);
    assert.deepEqual(JSON.parse(pub.stdout) as object, {
      client_id: (JSON.parse(pub.stdout) as { client_id: string }).client_id,
      redirect_uris: ['https://spa.example/cb'],
      pkce: 'required',
    });
    const lax = await create('--name', 'Legacy', '--redirect-uri', 'https://legacy.example/cb', '--pkce', 'optional');
    assert.equal(lax.code, 0, lax.stderr);
    assert.equal((JSON.parse(lax.stdout) as { pkce: string }).pkce, 'optional');

    // The server, started on the same data, knows the client and its secret at once.
    const api = await startTestApi({ dataDir });
    try {
      const token = (secret: string) =>
        fetch(`${api.url}/oauth/token`, {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            authorization: `Basic ${Buffer.from(`${line.client_id}:${secret}`).toString('base64')}`,
          },
          body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'x'.repeat(43) }),
        });
      const right = await token(line.client_secret);
      assert.deepEqual([right.status, ((await right.json()) as { error: string }).error], [400, 'invalid_grant']);
      const wrong = await token(`${line.client_secret}x`);
      assert.deepEqual([wrong.status, ((await wrong.json()) as { error: string }).error], [401, 'invalid_client']);
    } finally {
      await api.close();
    }
  });

  it('answers bad usage with exit 2 and the usage text', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['oauth-clients', 'create', '--account', accountId, '--name', 'x'], /--redirect-uri URI is required/],
      [
        ['oauth-clients', 'create', '--account', accountId, '--redirect-uri', 'https://a.example/cb'],
        /--name N is required/,
      ],
      [
        [
          'oauth-clients',
          'create',
          '--account',
          accountId,
          '--name',
          'x',
          '--redirect-uri',
          'https://a.example/cb',
          '--bogus',
        ],
        /bogus/,
      ],
      [
        ['oauth-clients', 'create', '--account', accountId, '--name', 'x', '--redirect-uri', 'http://evil.example/cb'],
        /redirect_uris.0: must be https/,
      ],
      [
        [
          'oauth-clients',
          'create',
          '--account',
          'acct_01JZ0000000000000000000000',
          '--name',
          'x',
          '--redirect-uri',
          'https://a.example/cb',
        ],
        /no such platform account/,
      ],
      [
        [
          'oauth-clients',
          'create',
          '--account',
          accountId,
          '--name',
          'x',
          '--redirect-uri',
          'https://a.example/cb',
          '--public',
          '--pkce',
          'optional',
        ],
        /pkce: a public client must always use PKCE/,
      ],
      [['oauth-clients', 'delete'], /unknown oauth-clients subcommand/],
    ];
    for (const [argv, message] of cases) {
      const bad = await svc(argv, env);
      assert.equal(bad.code, 2, `${argv.join(' ')}: ${bad.stderr}`);
      assert.match(bad.stderr, message);
      assert.match(bad.stderr, /oauth-clients create --account ACCOUNT_ID --name N --redirect-uri URI/);
      assert.equal(bad.stdout, '');
    }
  });
});
