import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { displayPrefix, generateApiKey, hashApiKey, parseApiKey } from './api-key-format.js';

describe('API key format', () => {
  it('generates keys of the documented shape that parse back', () => {
    for (const env of ['test', 'live'] as const) {
      const key = generateApiKey(env);
      assert.match(key, new RegExp(`^svc_${env}_[0-9A-Za-z]{38}$`));
      const parsed = parseApiKey(key);
      assert.deepEqual(parsed, { ok: true, env, hash: hashApiKey(key), displayPrefix: displayPrefix(key) });
    }
  });

  it('rejects any single-character change by checksum', () => {
    const key = generateApiKey('test');
    let rejected = 0;
    for (let i = 9; i < key.length; i++) {
      const c = key[i] === 'a' ? 'b' : 'a';
      const typo = key.slice(0, i) + c + key.slice(i + 1);
      if (parseApiKey(typo).ok === false) rejected++;
    }
    assert.equal(rejected, key.length - 9);
  });

  it('rejects malformed keys', () => {
    for (const bad of ['', 'svc_prod_x', 'sk_test_123', `svc_test_${'a'.repeat(37)}`, `${generateApiKey('test')}x`]) {
      assert.deepEqual(parseApiKey(bad), { ok: false, reason: 'malformed' }, bad);
    }
  });

  it('hashes with SHA-256 in hex (what the read model stores)', () => {
    assert.equal(hashApiKey('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('shows a short non-secret prefix', () => {
    const key = generateApiKey('live');
    assert.equal(displayPrefix(key), key.slice(0, 13));
    assert.match(displayPrefix(key), /^svc_live_[0-9A-Za-z]{4}$/);
  });
});
