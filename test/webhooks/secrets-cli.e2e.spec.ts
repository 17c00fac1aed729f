import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SECRETS_KEY_FILE, SecretBox, parseSecretKey } from '#kernel';
import { type Doc, SqliteDocumentStore } from '#documents';
import { WEBHOOK_SECRETS_COLLECTION, WebhookSecrets } from '#webhooks';
import { sqlitePath } from '../../libs/runtime/src/storage/open-stores.js';
import { svcInProcess as svc } from '../e2e/support/cli-in-process.js';

interface SecretDoc extends Doc {
  webhook_id: string;
  secret?: string;
  sealed?: string;
  created_at: string;
}

describe('svc secrets reseal (the CLI in process)', () => {
  let dir: string;
  let dataDir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-e2e-secrets-'));
    dataDir = join(dir, 'data');
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** Runs `fn` on the data directory's document store, closed afterwards (the CLI opens it too). */
  async function withDocuments<T>(fn: (documents: SqliteDocumentStore) => Promise<T>): Promise<T> {
    const documents = new SqliteDocumentStore({ path: sqlitePath({ dataDir }) });
    try {
      return await fn(documents);
    } finally {
      await documents.close();
    }
  }

  it('seals plaintext secrets with the key file, moves them to a new SVC_SECRETS_KEY, reports what it cannot open', async () => {
    // A store from before sealing: let the CLI create it, then put a plaintext secret in.
    const status = await svc(['projections', 'status', '--create'], { SVC_DATA_DIR: dataDir });
    assert.equal(status.code, 0, status.stderr);
    await withDocuments((d) =>
      d.collection<SecretDoc>(WEBHOOK_SECRETS_COLLECTION).upsert({
        id: 'wh_x:1',
        webhook_id: 'wh_x',
        secret: 'legacy-plaintext-0123456789',
        created_at: '2026-01-01T00:00:00.000Z',
      }),
    );

    const first = await svc(['secrets', 'reseal'], { SVC_DATA_DIR: dataDir });
    assert.equal(first.code, 0, first.stderr);
    assert.deepEqual(JSON.parse(first.stdout), { resealed: 1, current: 0, failed: [] });
    const fileKey = (await readFile(join(dataDir, SECRETS_KEY_FILE), 'utf8')).trim();
    const fileBox = new SecretBox(parseSecretKey(fileKey));
    await withDocuments(async (d) => {
      const doc = (await d.collection<SecretDoc>(WEBHOOK_SECRETS_COLLECTION).get('wh_x:1'))!;
      assert.equal(doc.secret, undefined);
      assert.ok(fileBox.isCurrent(doc.sealed!));
      assert.equal(await new WebhookSecrets(d, fileBox).get('wh_x:1'), 'legacy-plaintext-0123456789');
    });
    const again = await svc(['secrets', 'reseal'], { SVC_DATA_DIR: dataDir });
    assert.deepEqual(JSON.parse(again.stdout), { resealed: 0, current: 1, failed: [] });

    // Rotation: a new key, the file's key as an old one.
    const newKey = randomBytes(32).toString('hex');
    const rotated = await svc(['secrets', 'reseal'], {
      SVC_DATA_DIR: dataDir,
      SVC_SECRETS_KEY: newKey,
      SVC_SECRETS_OLD_KEYS: fileKey,
    });
    assert.equal(rotated.code, 0, rotated.stderr);
    assert.deepEqual(JSON.parse(rotated.stdout), { resealed: 1, current: 0, failed: [] });
    await withDocuments(async (d) =>
      assert.equal(
        await new WebhookSecrets(d, new SecretBox(parseSecretKey(newKey))).get('wh_x:1'),
        'legacy-plaintext-0123456789',
      ),
    );

    // A key that opens nothing here: reported by id, nothing changed, exit 1.
    const wrong = await svc(['secrets', 'reseal'], {
      SVC_DATA_DIR: dataDir,
      SVC_SECRETS_KEY: randomBytes(32).toString('hex'),
    });
    assert.equal(wrong.code, 1);
    const report = JSON.parse(wrong.stdout) as { resealed: number; failed: Array<{ id: string; reason: string }> };
    assert.equal(report.resealed, 0);
    assert.deepEqual(
      report.failed.map((f) => f.id),
      ['wh_x:1'],
    );
    assert.match(report.failed[0]!.reason, /which this process does not have/);
    assert.ok(!wrong.stdout.includes('legacy-plaintext'));
  });
});
