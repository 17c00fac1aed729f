import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { loadSecretBox, SECRETS_KEY_FILE } from './secret-keys.js';

const dirs: string[] = [];
const freshDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'secret-keys-'));
  dirs.push(dir);
  return dir;
};
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('loadSecretBox', () => {
  it('without SVC_SECRETS_KEY makes a key file (0600) on first use and reads the same key after', () => {
    const dataDir = join(freshDir(), 'not-yet-made');
    const first = loadSecretBox({ dataDir, secretsOldKeys: [] });
    assert.equal(first.keyFile, join(dataDir, SECRETS_KEY_FILE));
    assert.equal(statSync(first.keyFile!).mode & 0o777, 0o600);
    assert.deepEqual(readdirSync(dataDir), [SECRETS_KEY_FILE]); // nothing left aside
    const second = loadSecretBox({ dataDir, secretsOldKeys: [] });
    assert.equal(second.box.currentKeyId, first.box.currentKeyId);
    assert.equal(second.box.open(first.box.seal('kept', 'ctx'), 'ctx'), 'kept');
  });

  it('SVC_SECRETS_KEY wins over the file; old keys open what they sealed', () => {
    const dataDir = freshDir();
    const fromFile = loadSecretBox({ dataDir, secretsOldKeys: [] });
    const sealedByFile = fromFile.box.seal('from-file', 'ctx');
    const key = randomBytes(32).toString('base64');
    const fromEnv = loadSecretBox({ dataDir, secretsKey: key, secretsOldKeys: [] });
    assert.equal(fromEnv.keyFile, null);
    assert.notEqual(fromEnv.box.currentKeyId, fromFile.box.currentKeyId);
    assert.throws(() => fromEnv.box.open(sealedByFile, 'ctx'));
    const withOld = loadSecretBox({
      dataDir,
      secretsKey: key,
      secretsOldKeys: [randomBytes(32).toString('hex'), readFileSync(join(dataDir, SECRETS_KEY_FILE), 'utf8').trim()],
    });
    assert.equal(withOld.box.open(sealedByFile, 'ctx'), 'from-file');
  });

  it('refuses a key file that does not hold a key, naming the file', () => {
    const dataDir = freshDir();
    writeFileSync(join(dataDir, SECRETS_KEY_FILE), 'not a key\n');
    assert.throws(
      () => loadSecretBox({ dataDir, secretsOldKeys: [] }),
      new RegExp(`${SECRETS_KEY_FILE}: expected a 32-byte key`),
    );
  });
});
