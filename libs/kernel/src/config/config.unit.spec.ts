import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { billingEnv, configWarnings } from './billing.config.js';
import { configSchema, loadConfig } from './config.js';
import { ConfigError } from './config-fields.js';
import { httpEnv } from './http.config.js';
import { limitsEnv } from './limits.config.js';
import { storageEnv } from './storage.config.js';
import { webhooksEnv } from './webhooks.config.js';

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
    assert.throws(
      () => loadConfig({ PORT: 'eighty' }),
      (e: unknown) => {
        assert.ok(e instanceof ConfigError);
        assert.match(e.message, /^Invalid configuration: PORT="eighty": /);
        assert.doesNotMatch(e.message, /\n/);
        return true;
      },
    );
    assert.throws(() => loadConfig({ EVENTSTORE_URL: 'http://x' }), /EVENTSTORE_URL/);
    assert.throws(() => loadConfig({ MONGODB_URL: 'postgres://x' }), /MONGODB_URL/);
    assert.throws(() => loadConfig({ SVC_ENV: 'prod' }), /SVC_ENV/);
  });

  it('SVC_SIGN_IN_LIMIT_PER_MINUTE: 30 sign-in attempts per address by default, a positive whole number', () => {
    assert.equal(loadConfig({}).anonymousLimits.signInsPerMinute, 30);
    assert.equal(loadConfig({ SVC_SIGN_IN_LIMIT_PER_MINUTE: '5' }).anonymousLimits.signInsPerMinute, 5);
    for (const bad of ['0', '-1', '2.5', 'many']) {
      assert.throws(() => loadConfig({ SVC_SIGN_IN_LIMIT_PER_MINUTE: bad }), /SVC_SIGN_IN_LIMIT_PER_MINUTE/, bad);
    }
  });

  it('reads the ownership settings (ADR 0067) and refuses a renewal longer than half the lease', () => {
    assert.deepEqual(loadConfig({}).ownership, { leaseMs: 6000, renewMs: 2000, standbyCheckMs: 1000 });
    assert.equal(loadConfig({}).workerHealthPort, undefined);
    const c = loadConfig({
      SVC_OWNERSHIP_LEASE_MS: '10000',
      SVC_OWNERSHIP_RENEW_MS: '5000',
      SVC_WORKER_HEALTH_PORT: '3001',
    });
    assert.deepEqual(c.ownership, { leaseMs: 10000, renewMs: 5000, standbyCheckMs: 1000 });
    assert.equal(c.workerHealthPort, 3001);
    assert.throws(
      () => loadConfig({ SVC_OWNERSHIP_RENEW_MS: '3001' }),
      /SVC_OWNERSHIP_RENEW_MS="3001": expected at most half/,
    );
    assert.throws(() => loadConfig({ SVC_WORKER_HEALTH_PORT: 'x' }), /SVC_WORKER_HEALTH_PORT/);
  });

  it('selects the server adapters when their URLs are set and runs projections elsewhere', () => {
    const c = loadConfig({
      EVENTSTORE_URL: 'esdb://localhost:2113?tls=false',
      MONGODB_URL: 'mongodb://localhost:27017',
    });
    assert.equal(c.eventStoreUrl, 'esdb://localhost:2113?tls=false');
    assert.equal(c.runProjections, false);
  });

  it('reads the secrets keys, and never echoes a bad key in the error', () => {
    const key = 'a'.repeat(64);
    const c = loadConfig({
      SVC_SECRETS_KEY: key,
      SVC_SECRETS_OLD_KEYS: ` ${'b'.repeat(64)}, ${Buffer.alloc(32, 7).toString('base64')} `,
    });
    assert.equal(c.secretsKey, key);
    assert.deepEqual(c.secretsOldKeys, ['b'.repeat(64), Buffer.alloc(32, 7).toString('base64')]);
    assert.deepEqual(loadConfig({}).secretsOldKeys, []);
    for (const [name, bad] of [
      ['SVC_SECRETS_KEY', 'hunter2-not-a-key'],
      ['SVC_SECRETS_OLD_KEYS', `${key},hunter2-not-a-key`],
      ['STRIPE_SECRET_KEY', 'hunter2-not-a-key'],
    ] as const) {
      assert.throws(
        () => loadConfig({ [name]: bad }),
        (e: unknown) => {
          assert.ok(e instanceof ConfigError);
          assert.match(e.message, new RegExp(`^Invalid configuration: ${name}="\\(redacted\\)": `));
          assert.doesNotMatch(e.message, /hunter2/);
          return true;
        },
      );
    }
  });

  it('live mode needs SVC_PUBLIC_URL: links are never built from a Host header there', () => {
    const live = { SVC_ENV: 'live', STRIPE_SECRET_KEY: 'sk_live_abc', STRIPE_WEBHOOK_SECRET: 'whsec_x' };
    assert.throws(() => loadConfig(live), /SVC_PUBLIC_URL="": SVC_ENV=live needs the public base URL/);
    assert.equal(
      loadConfig({ ...live, SVC_PUBLIC_URL: 'https://api.example.com/' }).publicUrl,
      'https://api.example.com',
    );
  });

  it('SVC_WEBHOOK_RETRY_SCALE: 1 by default, (0, 1] in test mode, refused in live mode', () => {
    assert.equal(loadConfig({}).webhookRetryScale, 1);
    assert.equal(loadConfig({ SVC_WEBHOOK_RETRY_SCALE: '0.001' }).webhookRetryScale, 0.001);
    for (const bad of ['0', '2', 'fast'])
      assert.throws(
        () => loadConfig({ SVC_WEBHOOK_RETRY_SCALE: bad }),
        /^ConfigError: Invalid configuration: SVC_WEBHOOK_RETRY_SCALE=/,
      );
    const live = {
      SVC_ENV: 'live',
      STRIPE_SECRET_KEY: 'sk_live_abc',
      STRIPE_WEBHOOK_SECRET: 'whsec_x',
      SVC_PUBLIC_URL: 'https://api.example.com',
    };
    assert.equal(loadConfig(live).webhookRetryScale, 1);
    assert.throws(
      () => loadConfig({ ...live, SVC_WEBHOOK_RETRY_SCALE: '0.5' }),
      /SVC_WEBHOOK_RETRY_SCALE="0.5": a shortened retry schedule is for tests only/,
    );
  });

  it('SVC_WEBHOOK_LEASE_MS: 60 s by default; at least twice the send timeout', () => {
    assert.equal(loadConfig({}).webhookLeaseMs, 60_000);
    assert.equal(loadConfig({ SVC_WEBHOOK_LEASE_MS: '5000', SVC_WEBHOOK_TIMEOUT_MS: '500' }).webhookLeaseMs, 5000);
    assert.throws(
      () => loadConfig({ SVC_WEBHOOK_LEASE_MS: '15000' }),
      /SVC_WEBHOOK_LEASE_MS="15000": expected at least twice SVC_WEBHOOK_TIMEOUT_MS \(10000\)/,
    );
    assert.throws(() => loadConfig({ SVC_WEBHOOK_LEASE_MS: '10' }), /SVC_WEBHOOK_LEASE_MS=/);
  });

  it('Stripe without its webhook secret: refused in live mode, a loud warning in test mode', () => {
    assert.throws(
      () =>
        loadConfig({ SVC_ENV: 'live', STRIPE_SECRET_KEY: 'sk_live_abc', SVC_PUBLIC_URL: 'https://api.example.com' }),
      /STRIPE_WEBHOOK_SECRET="": .*never credited/,
    );
    const test = loadConfig({ STRIPE_SECRET_KEY: 'sk_test_abc' });
    assert.equal(configWarnings(test).length, 1);
    assert.match(configWarnings(test)[0]!, /STRIPE_WEBHOOK_SECRET/);
    assert.deepEqual(
      configWarnings(loadConfig({ STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_WEBHOOK_SECRET: 'whsec_x' })),
      [],
    );
    assert.deepEqual(configWarnings(loadConfig({})), [], 'the sandbox needs no secret');
  });

  it('allowed hosts: loopback and the listening address by default, or SVC_ALLOWED_HOSTS', () => {
    assert.deepEqual(loadConfig({}).allowedHosts, ['localhost', '127.0.0.1', '::1']);
    assert.deepEqual(loadConfig({ HOST: '10.0.0.5' }).allowedHosts, ['localhost', '127.0.0.1', '::1', '10.0.0.5']);
    assert.deepEqual(loadConfig({ SVC_ALLOWED_HOSTS: 'API.example.com, [::1]' }).allowedHosts, [
      'api.example.com',
      '::1',
    ]);
    assert.throws(
      () => loadConfig({ SVC_ALLOWED_HOSTS: 'evil.example/path' }),
      /SVC_ALLOWED_HOSTS=.*host names without port or path/,
    );
  });

  it('MCP limits: defaults, origins kept as browsers send them, anything but an origin refused', () => {
    assert.deepEqual(loadConfig({}).mcp, { anonymousPerMinute: 300, maxBatch: 20, allowedOrigins: [] });
    assert.deepEqual(
      loadConfig({ SVC_MCP_ALLOWED_ORIGINS: 'https://App.example.com:443/, http://localhost:6274' }).mcp.allowedOrigins,
      ['https://app.example.com', 'http://localhost:6274'],
    );
    for (const bad of ['https://app.example.com/mcp', 'app.example.com', 'ftp://files.example.com', 'null'])
      assert.throws(
        () => loadConfig({ SVC_MCP_ALLOWED_ORIGINS: bad }),
        /SVC_MCP_ALLOWED_ORIGINS=.*expected origins/,
        bad,
      );
    assert.throws(() => loadConfig({ SVC_MCP_MAX_BATCH: '101' }), /SVC_MCP_MAX_BATCH=.*at most 100/);
    assert.throws(() => loadConfig({ SVC_MCP_ANONYMOUS_LIMIT_PER_MINUTE: '0' }), /at least 1/);
  });

  it('HTTP limits: explicit defaults, and a headers timeout no longer than the request timeout', () => {
    assert.deepEqual(loadConfig({}).http, {
      requestTimeoutMs: 30_000,
      headersTimeoutMs: 10_000,
      keepAliveTimeoutMs: 72_000,
      idleTimeoutMs: 60_000,
      maxHeaderBytes: 16_384,
    });
    assert.throws(
      () => loadConfig({ SVC_HTTP_HEADERS_TIMEOUT_MS: '5000', SVC_HTTP_REQUEST_TIMEOUT_MS: '2000' }),
      /SVC_HTTP_HEADERS_TIMEOUT_MS/,
    );
  });

  it('reads each variable in one section only: no section overrides another in the composed schema', () => {
    const sections = [httpEnv, storageEnv, billingEnv, limitsEnv, webhooksEnv].map((e) => Object.keys(e.shape));
    const all = sections.flat();
    assert.equal(new Set(all).size, all.length, 'a variable in two sections');
    for (const name of all) assert.ok(name in configSchema.shape, name);
    assert.equal(Object.keys(configSchema.shape).length, all.length + 5, 'and the five of the deployment itself');
  });
});
