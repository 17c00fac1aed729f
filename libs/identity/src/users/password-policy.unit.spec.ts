import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { generatePassword, PASSWORD_MIN_LENGTH, passwordProblems } from './password-policy.js';

describe('password policy', () => {
  it('takes 15 to 256 characters of any kind, counted as a person counts them', () => {
    assert.deepEqual(passwordProblems('a'.repeat(PASSWORD_MIN_LENGTH)), []);
    assert.deepEqual(passwordProblems('🔑'.repeat(15)), []);
    assert.equal(passwordProblems('a'.repeat(14))[0]?.path, 'password');
    assert.equal(passwordProblems('a'.repeat(257)).length, 1);
  });

  it('generates 32 URL-safe characters that pass it', () => {
    const a = generatePassword();
    assert.match(a, /^[A-Za-z0-9_-]{32}$/);
    assert.notEqual(a, generatePassword());
    assert.deepEqual(passwordProblems(a), []);
  });
});
