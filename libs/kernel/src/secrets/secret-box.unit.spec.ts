import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { generateSecretKey, parseSecretKey, SecretBox, SecretBoxError, secretKeyId } from './secret-box.js';

const key = () => randomBytes(32);

describe('SecretBox', () => {
  it('seals a secret that opens back, never showing the plaintext, with a fresh nonce each time', () => {
    const box = new SecretBox(key());
    const a = box.seal('whsec_my-signing-secret', 'wh_1:01J');
    const b = box.seal('whsec_my-signing-secret', 'wh_1:01J');
    assert.match(a, new RegExp(`^sb1\\.${box.currentKeyId}\\.[A-Za-z0-9_-]{16}\\.[A-Za-z0-9_-]+$`));
    assert.ok(!a.includes('my-signing-secret'));
    assert.notEqual(a, b);
    assert.equal(box.open(a, 'wh_1:01J'), 'whsec_my-signing-secret');
    assert.equal(box.open(b, 'wh_1:01J'), 'whsec_my-signing-secret');
  });

  it('refuses a value moved to another record (the context is authenticated)', () => {
    const box = new SecretBox(key());
    const sealed = box.seal('s3cret', 'wh_1:a');
    assert.throws(() => box.open(sealed, 'wh_2:a'), SecretBoxError);
  });

  it('refuses any change to the sealed value', () => {
    const box = new SecretBox(key());
    const sealed = box.seal('s3cret-value', 'ctx');
    const last = sealed.at(-2) === 'A' ? 'B' : 'A';
    const tampered = `${sealed.slice(0, -2)}${last}${sealed.at(-1)}`;
    assert.throws(() => box.open(tampered, 'ctx'), SecretBoxError);
    assert.throws(() => box.open(sealed.replace(/^sb1\./, 'sb2.'), 'ctx'), /not a sealed value/);
    assert.throws(() => box.open('plaintext', 'ctx'), /not a sealed value/);
    const [p, k, , c] = sealed.split('.');
    assert.throws(() => box.open(`${p}.${k}.AAAA.${c}`, 'ctx'), /malformed/);
  });

  it('opens what an older key sealed, seals with the current one (rotation)', () => {
    const oldKey = key();
    const newKey = key();
    const before = new SecretBox(oldKey).seal('rotating', 'ctx');
    const after = new SecretBox(newKey, [oldKey]);
    assert.equal(after.open(before, 'ctx'), 'rotating');
    assert.equal(after.isCurrent(before), false);
    const resealed = after.seal('rotating', 'ctx');
    assert.equal(after.isCurrent(resealed), true);
    assert.equal(after.currentKeyId, secretKeyId(newKey));
    // Without the old key, the message names the key id it needs, never the secret.
    assert.throws(
      () => new SecretBox(newKey).open(before, 'ctx'),
      new RegExp(`key ${secretKeyId(oldKey)}, which this process does not have`),
    );
  });

  it('reads keys as hex, base64 and base64url, and refuses anything else', () => {
    const bytes = key();
    assert.deepEqual(parseSecretKey(bytes.toString('hex')), bytes);
    assert.deepEqual(parseSecretKey(bytes.toString('base64')), bytes);
    assert.deepEqual(parseSecretKey(` ${bytes.toString('base64url')}\n`), bytes);
    assert.equal(parseSecretKey(generateSecretKey()).length, 32);
    for (const bad of [
      '',
      'short',
      bytes.subarray(0, 31).toString('hex'),
      `${bytes.toString('hex')}00`,
      randomBytes(33).toString('base64'),
    ]) {
      assert.throws(() => parseSecretKey(bad), SecretBoxError, bad);
    }
    assert.throws(() => new SecretBox(randomBytes(16)), SecretBoxError);
  });
});
