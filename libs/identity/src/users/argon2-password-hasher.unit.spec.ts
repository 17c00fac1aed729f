import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ARGON2ID_OPTIONS, Argon2PasswordHasher, DUMMY_HASH } from './argon2-password-hasher.adapter.js';

describe('argon2id password hasher', () => {
  const hasher = new Argon2PasswordHasher();

  it('hashes with argon2id and the configured cost, salted, and verifies', async () => {
    const a = await hasher.hash('correct horse battery staple');
    const b = await hasher.hash('correct horse battery staple');
    const { memoryCost: m, timeCost: t, parallelism: p } = ARGON2ID_OPTIONS;
    assert.match(a, new RegExp(`^\\$argon2id\\$v=19\\$m=${m},t=${t},p=${p}\\$`));
    assert.notEqual(a, b);
    assert.equal(await hasher.verify(a, 'correct horse battery staple'), true);
    assert.equal(await hasher.verify(a, 'Correct horse battery staple'), false);
  });

  it('answers false for no user (after checking the dummy hash) and for a malformed hash', async () => {
    assert.equal(await hasher.verify(null, 'svc: the password of no user'), false);
    assert.equal(await hasher.verify('not a hash', 'anything at all'), false);
  });

  it('takes about as long for no user as for a wrong password (medians, interleaved)', async () => {
    const real = await hasher.hash('correct horse battery staple');
    const timed = async (stored: string | null) => {
      const start = performance.now();
      await hasher.verify(stored, 'a wrong guess');
      return performance.now() - start;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 5; i++) {
      known.push(await timed(real));
      unknown.push(await timed(null));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[2]!;
    const ratio = median(unknown) / median(known);
    // Loose bounds: a shared machine is noisy, but skipping the hash would make this near 0.
    assert.ok(ratio > 0.33 && ratio < 3, `unknown/known = ${ratio.toFixed(2)}`);
  });

  it('keeps the dummy hash at the cost real hashes have, so an unknown email takes as long', () => {
    const { memoryCost: m, timeCost: t, parallelism: p } = ARGON2ID_OPTIONS;
    assert.ok(DUMMY_HASH.startsWith(`$argon2id$v=19$m=${m},t=${t},p=${p}$`), DUMMY_HASH);
  });
});
