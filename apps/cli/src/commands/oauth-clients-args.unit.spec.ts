import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCliArgs, UsageError } from '../cli-args.js';

const ACCOUNT = 'acct_01JZ0000000000000000000000';

describe('svc oauth-clients arguments', () => {
  it('reads oauth-clients create with repeated --redirect-uri, --public and --pkce (default required)', () => {
    assert.deepEqual(
      parseCliArgs([
        'oauth-clients',
        'create',
        '--account',
        ACCOUNT,
        '--name',
        'App',
        '--redirect-uri',
        'https://a.example/cb',
        '--redirect-uri',
        'http://127.0.0.1/cb',
      ]),
      {
        kind: 'oauth-clients-create',
        accountId: ACCOUNT,
        name: 'App',
        redirectUris: ['https://a.example/cb', 'http://127.0.0.1/cb'],
        public: false,
        pkce: 'required',
      },
    );
    assert.equal(
      (
        parseCliArgs([
          'oauth-clients',
          'create',
          '--account',
          ACCOUNT,
          '--name',
          'App',
          '--redirect-uri',
          'https://a.example/cb',
          '--pkce',
          'optional',
        ]) as { pkce: string }
      ).pkce,
      'optional',
    );
    assert.equal(
      (
        parseCliArgs([
          'oauth-clients',
          'create',
          '--account',
          ACCOUNT,
          '--name',
          'App',
          '--redirect-uri',
          'https://a.example/cb',
          '--public',
        ]) as { public: boolean }
      ).public,
      true,
    );
  });

  it('refuses bad arguments with a UsageError (exit 2)', () => {
    for (const argv of [
      ['oauth-clients'],
      ['oauth-clients', 'list'],
      ['oauth-clients', 'create', '--name', 'App', '--redirect-uri', 'https://a.example/cb'],
      ['oauth-clients', 'create', '--account', 'acct_1', '--name', 'App', '--redirect-uri', 'https://a.example/cb'],
      ['oauth-clients', 'create', '--account', ACCOUNT, '--redirect-uri', 'https://a.example/cb'],
      ['oauth-clients', 'create', '--account', ACCOUNT, '--name', 'App'],
      [
        'oauth-clients',
        'create',
        '--account',
        ACCOUNT,
        '--name',
        'App',
        '--redirect-uri',
        'https://a.example/cb',
        '--bogus',
      ],
      [
        'oauth-clients',
        'create',
        '--account',
        ACCOUNT,
        '--name',
        'App',
        '--redirect-uri',
        'https://a.example/cb',
        '--public=yes',
      ],
      [
        'oauth-clients',
        'create',
        '--account',
        ACCOUNT,
        '--name',
        'App',
        '--redirect-uri',
        'https://a.example/cb',
        '--pkce',
        'plain',
      ],
      [
        'oauth-clients',
        'create',
        '--account',
        ACCOUNT,
        '--name',
        'App',
        '--redirect-uri',
        'https://a.example/cb',
        'extra',
      ],
    ]) {
      assert.throws(() => parseCliArgs(argv), UsageError, argv.join(' '));
    }
  });
});
