import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCliArgs, UsageError } from '../cli-args.js';

describe('svc accounts / keys arguments', () => {
  it('reads accounts create and plan', () => {
    assert.deepEqual(parseCliArgs(['accounts', 'create', '--plan', 'free']), {
      kind: 'accounts-create',
      plan: 'free',
      name: 'Free account',
    });
    assert.deepEqual(parseCliArgs(['accounts', 'create', '--plan', 'team', '--name', 'Acme']), {
      kind: 'accounts-create',
      plan: 'team',
      name: 'Acme',
    });
    assert.deepEqual(
      parseCliArgs(['accounts', 'create', '--plan', 'enterprise', '--per-minute', '5000', '--per-hour', '200000']),
      {
        kind: 'accounts-create',
        plan: 'enterprise',
        name: 'Enterprise account',
        perMinute: 5000,
        perHour: 200000,
      },
    );
    assert.deepEqual(parseCliArgs(['accounts', 'plan', '--id', 'acct_1', '--plan', 'free']), {
      kind: 'accounts-plan',
      accountId: 'acct_1',
      plan: 'free',
    });
  });

  it('reads keys create and revoke', () => {
    assert.deepEqual(
      parseCliArgs(['keys', 'create', '--account', 'acct_1', '--scopes', 'read, agents:run', '--name', 'CI']),
      {
        kind: 'keys-create',
        accountId: 'acct_1',
        scopes: ['read', 'agents:run'],
        name: 'CI',
        surface: 'platform',
      },
    );
    assert.equal(
      (
        parseCliArgs(['keys', 'create', '--account', 'a', '--scopes', 'read', '--name', 'n', '--surface', 'agent']) as {
          surface: string;
        }
      ).surface,
      'agent',
    );
    assert.deepEqual(parseCliArgs(['keys', 'revoke', '--id', 'key_1']), { kind: 'keys-revoke', keyId: 'key_1' });
  });

  it('refuses bad arguments with a UsageError (exit 2)', () => {
    for (const argv of [
      ['accounts'],
      ['accounts', 'delete'],
      ['accounts', 'create'],
      ['accounts', 'create', '--plan', 'gold'],
      ['accounts', 'create', '--plan', 'enterprise'],
      ['accounts', 'create', '--plan', 'enterprise', '--per-minute', '10'],
      ['accounts', 'create', '--plan', 'free', '--per-minute', '10', '--per-hour', '100'],
      ['accounts', 'create', '--plan', 'enterprise', '--per-minute', 'ten', '--per-hour', '100'],
      ['accounts', 'create', '--plan', 'enterprise', '--per-minute', '0', '--per-hour', '100'],
      ['accounts', 'create', '--plan', 'free', '--name', ''],
      ['accounts', 'create', '--plan', 'free', 'extra'],
      ['accounts', 'plan', '--plan', 'free'],
      ['keys'],
      ['keys', 'create', '--scopes', 'read', '--name', 'n'],
      ['keys', 'create', '--account', 'a', '--name', 'n'],
      ['keys', 'create', '--account', 'a', '--scopes', 'read'],
      ['keys', 'create', '--account', 'a', '--scopes', 'read,,write', '--name', 'n'],
      ['keys', 'create', '--account', 'a', '--scopes', 'read', '--name', 'n', '--surface', 'other'],
      ['keys', 'create', '--account', 'a', '--scopes', 'read', '--name', 'n', '--bogus'],
      ['keys', 'revoke'],
    ]) {
      assert.throws(() => parseCliArgs(argv), UsageError, argv.join(' '));
    }
  });
});
