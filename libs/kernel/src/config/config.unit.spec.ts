import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('applies the documented defaults: embedded stores, port 3000, ./data, test keys', () => {
    const c = loadConfig({});
    assert.equal(c.port, 3000);
    assert.match(c.dataDir, /\/data$/);
    assert.equal(c.env, 'test');
    assert.equal(c.eventStoreUrl, undefined);
    assert.equal(c.mongoUrl, undefined);
    assert.equal(c.runProjections, true);
  });

  it('refuses a bad value with one line naming the variable', () => {
    assert.throws(() => loadConfig({ PORT: 'eighty' }), (e: unknown) => {
      assert.ok(e instanceof ConfigError);
      assert.match(e.message, /^Invalid configuration: PORT="eighty": /);
      assert.doesNotMatch(e.message, /\n/);
      return true;
    });
    assert.throws(() => loadConfig({ EVENTSTORE_URL: 'http://x' }), /EVENTSTORE_URL/);
    assert.throws(() => loadConfig({ MONGODB_URL: 'postgres://x' }), /MONGODB_URL/);
    assert.throws(() => loadConfig({ SVC_ENV: 'prod' }), /SVC_ENV/);
  });

  it('selects the server adapters when their URLs are set and runs projections elsewhere', () => {
    const c = loadConfig({ EVENTSTORE_URL: 'esdb://localhost:2113?tls=false', MONGODB_URL: 'mongodb://localhost:27017' });
    assert.equal(c.eventStoreUrl, 'esdb://localhost:2113?tls=false');
    assert.equal(c.runProjections, false);
  });

  it('reads the secrets keys, and never echoes a bad key in the error', () => {
    const key = 'a'.repeat(64);
    const c = loadConfig({ SVC_SECRETS_KEY: key, SVC_SECRETS_OLD_KEYS: ` ${'b'.repeat(64)}, ${Buffer.alloc(32, 7).toString('base64')} ` });
    assert.equal(c.secretsKey, key);
    assert.deepEqual(c.secretsOldKeys, ['b'.repeat(64), Buffer.alloc(32, 7).toString('base64')]);
    assert.deepEqual(loadConfig({}).secretsOldKeys, []);
    for (const [name, bad] of [['SVC_SECRETS_KEY', 'hunter2-not-a-key'], ['SVC_SECRETS_OLD_KEYS', `${key},hunter2-not-a-key`], ['STRIPE_SECRET_KEY', 'hunter2-not-a-key']] as const) {
      assert.throws(() => loadConfig({ [name]: bad }), (e: unknown) => {
        assert.ok(e instanceof ConfigError);
        assert.match(e.message, new RegExp(`^Invalid configuration: ${name}="\\(redacted\\)": `));
        assert.doesNotMatch(e.message, /hunter2/);
        return true;
      });
    }
  });
});
