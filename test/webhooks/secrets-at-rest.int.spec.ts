import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Logger, type LoggerService } from '@nestjs/common';
import { loadConfig, SECRETS_KEY_FILE, SecretBox, SecretBoxError } from '#kernel';
import { SqliteDocumentStore } from '#documents';
import { WEBHOOK_SECRETS_COLLECTION, WebhookSecrets, webhookSecretsFor } from '#webhooks';
import { startTestApi } from '../api/support/test-api.js';
import { createAccountWithKey } from '../platform/support/platform-fixtures.js';
import { client } from './support/http-client.js';
import { TestReceiver } from './support/receiver.js';

describe('webhook secrets at rest (SecretBox over the embedded document store)', () => {
  let dir: string;
  let documents: SqliteDocumentStore;
  const now = new Date('2026-11-21T12:00:00Z');
  const raw = () =>
    documents.collection<{ id: string; sealed?: string; secret?: string; webhook_id: string; created_at: string }>(
      WEBHOOK_SECRETS_COLLECTION,
    );

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'secrets-at-rest-'));
    documents = new SqliteDocumentStore({ path: join(dir, 'store.db') });
  });
  after(async () => {
    await documents.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stores only the sealed form and reads the secret back (a fresh store instance too)', async () => {
    const box = new SecretBox(randomBytes(32));
    await new WebhookSecrets(documents, box).put('wh_a:1', 'wh_a', 'plain-secret-aaaaaaaaaaaa', now);
    const doc = await raw().get('wh_a:1');
    assert.ok(doc?.sealed && !JSON.stringify(doc).includes('plain-secret'));
    assert.equal(await new WebhookSecrets(documents, box).get('wh_a:1'), 'plain-secret-aaaaaaaaaaaa');
    assert.equal(await new WebhookSecrets(documents, box).get('wh_a:missing'), null);
  });

  it('warns when secrets in MongoDB are sealed with a key file only this machine has, not with SVC_SECRETS_KEY', () => {
    const warnings: string[] = [];
    const previous = (Logger as unknown as { staticInstanceRef?: LoggerService }).staticInstanceRef;
    Logger.overrideLogger({
      log: () => undefined,
      error: () => undefined,
      warn: (m: unknown) => void warnings.push(String(m)),
    });
    try {
      const mongo = { MONGODB_URL: 'mongodb://localhost:27017', SVC_DATA_DIR: dir };
      webhookSecretsFor(loadConfig(mongo), documents);
      assert.equal(warnings.length, 1);
      assert.match(
        warnings[0]!,
        new RegExp(
          `sealed with the key in ${join(dir, SECRETS_KEY_FILE)}; every process using this MongoDB needs the same key: set SVC_SECRETS_KEY`,
        ),
      );
      webhookSecretsFor(loadConfig({ ...mongo, SVC_SECRETS_KEY: randomBytes(32).toString('hex') }), documents);
      webhookSecretsFor(loadConfig({ SVC_DATA_DIR: dir }), documents);
      assert.equal(warnings.length, 1, 'no warning with SVC_SECRETS_KEY, nor on the embedded store');
    } finally {
      Logger.overrideLogger(previous ?? false);
    }
  });

  it('refuses a sealed value copied onto another secret id', async () => {
    const box = new SecretBox(randomBytes(32));
    const secrets = new WebhookSecrets(documents, box);
    await secrets.put('wh_b:1', 'wh_b', 'secret-of-b-bbbbbbbbbbbb', now);
    const sealed = (await raw().get('wh_b:1'))!.sealed!;
    await raw().upsert({ id: 'wh_c:1', webhook_id: 'wh_c', sealed, created_at: now.toISOString() });
    await assert.rejects(new WebhookSecrets(documents, box).get('wh_c:1'), SecretBoxError);
  });

  it('reads plaintext secrets stored before sealing, and reseal seals them and moves old keys to the current one', async () => {
    const oldKey = randomBytes(32);
    const newKey = randomBytes(32);
    await raw().upsert({
      id: 'wh_d:1',
      webhook_id: 'wh_d',
      secret: 'legacy-plaintext-dddddddd',
      created_at: now.toISOString(),
    });
    await new WebhookSecrets(documents, new SecretBox(oldKey)).put('wh_e:1', 'wh_e', 'sealed-by-old-key-eeeeeee', now);
    // A value nothing here can open (its key is lost): reported, left untouched.
    await new WebhookSecrets(documents, new SecretBox(randomBytes(32))).put(
      'wh_f:1',
      'wh_f',
      'key-lost-ffffffffffffffff',
      now,
    );
    const lost = (await raw().get('wh_f:1'))!.sealed;

    const box = new SecretBox(newKey, [oldKey]);
    const secrets = new WebhookSecrets(documents, box);
    assert.equal(await secrets.get('wh_d:1'), 'legacy-plaintext-dddddddd');
    assert.equal(await secrets.get('wh_e:1'), 'sealed-by-old-key-eeeeeee');

    const first = await secrets.reseal();
    assert.ok(first.resealed >= 2, JSON.stringify(first));
    assert.deepEqual(
      first.failed.map((f) => f.id),
      // The earlier tests' documents under other keys are unopenable here as well.
      (await raw().find({})).items.filter((d) => d.sealed && !box.isCurrent(d.sealed)).map((d) => d.id),
    );
    assert.ok(first.failed.some((f) => f.id === 'wh_f:1' && /does not have/.test(f.reason)));
    for (const id of ['wh_d:1', 'wh_e:1']) {
      const doc = (await raw().get(id))!;
      assert.equal(doc.secret, undefined, `${id} still holds a plaintext`);
      assert.ok(box.isCurrent(doc.sealed!), `${id} is not sealed with the current key`);
    }
    assert.equal((await raw().get('wh_f:1'))!.sealed, lost);
    // Read back with the new key alone: the old one can be retired now.
    const newOnly = new WebhookSecrets(documents, new SecretBox(newKey));
    assert.equal(await newOnly.get('wh_d:1'), 'legacy-plaintext-dddddddd');
    assert.equal(await newOnly.get('wh_e:1'), 'sealed-by-old-key-eeeeeee');

    const again = await secrets.reseal();
    assert.equal(again.resealed, 0);
    assert.equal(again.current, first.current + first.resealed);
  });
});

describe('a webhook secret sealed with a key the process lacks', () => {
  it('holds the delivery (nothing sent, nothing failed) until the key is back, then sends it signed', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'secrets-key-back-'));
    const receiver = await TestReceiver.start();
    const env = { SVC_WEBHOOK_ALLOW_PRIVATE: 'true' };
    try {
      // Created under the data directory's key file.
      let api = await startTestApi({ dataDir, env });
      const { key } = await createAccountWithKey(api.app, { scopes: ['admin'] });
      const secret = 'whsec-held-until-the-key-is-back';
      const created = await client(api.url, key)('POST', '/v1/webhooks', {
        url: receiver.endpoint('/held', secret),
        events: ['agent.completed'],
        secret,
      });
      assert.equal(created.status, 201, created.text);
      await api.close();

      // Another key: the secret does not open, so the test event waits.
      api = await startTestApi({ dataDir, env: { ...env, SVC_SECRETS_KEY: randomBytes(32).toString('hex') } });
      const call = client(api.url, key);
      assert.equal((await call('POST', `/v1/webhooks/${created.body.id}/test`, {})).status, 202);
      await new Promise((r) => setTimeout(r, 1500));
      assert.equal(receiver.at('/held').length, 0);
      const deliveries = await call('GET', `/v1/webhooks/${created.body.id}/deliveries`);
      assert.equal(deliveries.status, 200, deliveries.text);
      assert.deepEqual(
        deliveries.body.data.map((d: { state: string; attempts: unknown[] }) => [d.state, d.attempts.length]),
        [['pending', 0]],
      );
      await api.close();

      // The key file's key again: it goes out once, correctly signed.
      api = await startTestApi({ dataDir, env });
      await receiver.until(() => receiver.at('/held').length === 1, 10_000, 'the held delivery');
      assert.equal(receiver.at('/held')[0]!.signatureValid, true);
      await api.close();
    } finally {
      await receiver.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
