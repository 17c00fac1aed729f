import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCliArgs, UsageError } from '../cli-args.js';

const ACCOUNT = 'acct_01JZ0000000000000000000000';

describe('svc users arguments', () => {
  it('reads users create, with the role member by default and the password optional', () => {
    assert.deepEqual(
      parseCliArgs([
        'users',
        'create',
        '--account',
        ACCOUNT,
        '--email',
        'Ada@Example.com',
        '--password',
        'p'.repeat(15),
      ]),
      { kind: 'users-create', accountId: ACCOUNT, email: 'Ada@Example.com', password: 'p'.repeat(15), role: 'member' },
    );
    assert.deepEqual(parseCliArgs(['users', 'create', '--account', ACCOUNT, '--email', 'a@b.co', '--role', 'admin']), {
      kind: 'users-create',
      accountId: ACCOUNT,
      email: 'a@b.co',
      role: 'admin',
    });
  });

  it('reads users reset-password --email', () => {
    assert.deepEqual(parseCliArgs(['users', 'reset-password', '--email', 'a@b.co']), {
      kind: 'users-reset-password',
      email: 'a@b.co',
    });
    for (const argv of [
      ['users', 'reset-password'],
      ['users', 'reset-password', '--email', ' '],
      ['users', 'reset-password', '--email', 'a@b.co', '--role', 'admin'],
    ])
      assert.throws(() => parseCliArgs(argv), UsageError, argv.join(' '));
  });

  it('refuses bad arguments with a UsageError (exit 2)', () => {
    for (const argv of [
      ['users'],
      ['users', 'delete'],
      ['users', 'create'],
      ['users', 'create', '--email', 'a@b.co'],
      ['users', 'create', '--account', 'acct_1', '--email', 'a@b.co'],
      ['users', 'create', '--account', ACCOUNT],
      ['users', 'create', '--account', ACCOUNT, '--email', ' '],
      ['users', 'create', '--account', ACCOUNT, '--email', 'a@b.co', '--password', ''],
      ['users', 'create', '--account', ACCOUNT, '--email', 'a@b.co', '--role', 'owner'],
      ['users', 'create', '--account', ACCOUNT, '--email', 'a@b.co', '--bogus', 'x'],
      ['users', 'create', '--account', ACCOUNT, '--email', 'a@b.co', 'extra'],
    ]) {
      assert.throws(() => parseCliArgs(argv), UsageError, argv.join(' '));
    }
  });
});
