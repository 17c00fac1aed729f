import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestApi } from '../api/support/test-api.js';
import { svcInProcess as svc } from '../e2e/support/cli-in-process.js';
import { csrfToken, FormClient } from './support/form-client.js';

describe('svc users create (the CLI in process), then signing in with what it printed', () => {
  let dataDir: string;
  let env: Record<string, string>;
  let accountId: string;
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'svc-e2e-users-'));
    env = { SVC_DATA_DIR: dataDir };
    const account = await svc(['accounts', 'create', '--plan', 'team', '--name', 'Acme', '--create'], env);
    assert.equal(account.code, 0, account.stderr);
    accountId = (JSON.parse(account.stdout) as { account_id: string }).account_id;
  });
  after(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  const users = (...args: string[]) => svc(['users', 'create', '--account', accountId, ...args], env);

  it('creates a user and prints {user_id, account_id, email, role} as one JSON line', async () => {
    const created = await users(
      '--email',
      'Ada@Example.com',
      '--password',
      'a long enough passphrase',
      '--role',
      'admin',
    );
    assert.equal(created.code, 0, created.stderr);
    assert.equal(created.stdout.trimEnd().split('\n').length, 1);
    const line = JSON.parse(created.stdout) as Record<string, string>;
    assert.deepEqual(Object.keys(line), ['user_id', 'account_id', 'email', 'role']);
    assert.match(line.user_id!, /^usr_[0-9A-Z]{26}$/);
    assert.deepEqual([line.account_id, line.email, line.role], [accountId, 'Ada@Example.com', 'admin']);
  });

  it('refuses the same email in another case: exit 1 and one clear line', async () => {
    const again = await users('--email', 'ada@EXAMPLE.com', '--password', 'another long passphrase');
    assert.equal(again.code, 1);
    assert.equal(again.stdout, '');
    assert.equal(again.stderr, 'svc: A user with this email exists already.\n');
  });

  it('answers bad usage with exit 2 and the usage text: arguments, a short password, an unknown account', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['users', 'create', '--account', accountId], /--email E is required/],
      [
        ['users', 'create', '--account', accountId, '--email', 'x@example.com', '--role', 'owner'],
        /--role must be admin or member/,
      ],
      [
        ['users', 'create', '--account', accountId, '--email', 'x@example.com', '--password', 'short'],
        /password: must be 15 to 256 characters/,
      ],
      [
        [
          'users',
          'create',
          '--account',
          accountId,
          '--email',
          'not-an-address',
          '--password',
          'a long enough passphrase',
        ],
        /email: must be an email address/,
      ],
      [
        ['users', 'create', '--account', 'acct_01JZ0000000000000000000000', '--email', 'x@example.com'],
        /no such platform account/,
      ],
    ];
    for (const [argv, message] of cases) {
      const bad = await svc(argv, env);
      assert.equal(bad.code, 2, `${argv.join(' ')}: ${bad.stderr}`);
      assert.match(bad.stderr, message);
      assert.match(bad.stderr, /users create --account ACCOUNT_ID --email E/);
    }
  });

  it('generates a password when none is given, printed once, and it signs in', async () => {
    const created = await users('--email', 'Grace@Example.com');
    assert.equal(created.code, 0, created.stderr);
    const line = JSON.parse(created.stdout) as Record<string, string>;
    assert.deepEqual(Object.keys(line), ['user_id', 'account_id', 'email', 'role', 'password']);
    assert.equal(line.role, 'member');
    assert.match(line.password!, /^[A-Za-z0-9_-]{32}$/);

    // The server, started on the same data afterwards, lets the user in with it.
    const api = await startTestApi({ dataDir });
    try {
      const browser = new FormClient(api.url);
      const answer = await browser.signIn('grace@example.com', line.password!);
      assert.deepEqual([answer.status, answer.headers.get('location')], [303, '/dashboard'], answer.body);
      assert.match(
        (await browser.get('/dashboard')).body,
        /Signed in as <strong>Grace@Example.com<\/strong> \(member\)/,
      );
      assert.equal((await new FormClient(api.url).signIn('grace@example.com', 'not the password')).status, 422);
    } finally {
      await api.close();
    }
  });

  it('users reset-password prints a single-use link for the user of an address; the link sets a new password', async () => {
    const created = await users('--email', 'reset@example.com', '--password', 'the first long password');
    assert.equal(created.code, 0, created.stderr);
    const issued = await svc(['users', 'reset-password', '--email', 'Reset@Example.com'], env);
    assert.equal(issued.code, 0, issued.stderr);
    const line = JSON.parse(issued.stdout) as Record<string, string>;
    assert.deepEqual(Object.keys(line), ['user_id', 'email', 'reset_url', 'expires_at']);
    assert.match(line.reset_url!, /^http:\/\/localhost:\d+\/password\/reset\?token=[A-Za-z0-9_-]{43}$/);
    const unknown = await svc(['users', 'reset-password', '--email', 'nobody@example.com'], env);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /no user has this address/);

    const api = await startTestApi({ dataDir });
    try {
      const path = new URL(line.reset_url!).pathname + new URL(line.reset_url!).search;
      const browser = new FormClient(api.url);
      const form = await browser.get(path);
      assert.equal(form.status, 200);
      const token = new URL(line.reset_url!).searchParams.get('token')!;
      const done = await browser.post('/password/reset', {
        _csrf: csrfToken(form.body),
        token,
        new_password: 'the second long password',
        confirm_password: 'the second long password',
      });
      assert.deepEqual([done.status, done.headers.get('location')], [303, '/login?reset=1'], done.body);
      assert.equal((await new FormClient(api.url).signIn('reset@example.com', 'the first long password')).status, 422);
      const signedIn = await new FormClient(api.url).signIn('reset@example.com', 'the second long password');
      assert.equal(signedIn.status, 303);
      assert.equal((await browser.get(path)).status, 400, 'used once');
    } finally {
      await api.close();
    }
  });
});
