import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { checkCheckoutBinding, signCheckoutBinding } from './checkout-link.signature.js';

describe('checkout link binding (key_id bound by a signature of this service)', () => {
  const secret = randomBytes(32);
  const keyId = 'key_01JAAAAAAAAAAAAAAAAAAAAAAA';

  it('given a link signed until t, when checked before t, then it binds; after t it is expired', () => {
    const binding = signCheckoutBinding(secret, keyId, 1_000);
    assert.equal(binding.key_id, keyId);
    assert.equal(binding.exp, '1000');
    assert.equal(checkCheckoutBinding(secret, binding, 999), 'valid');
    assert.equal(checkCheckoutBinding(secret, binding, 1_000), 'valid');
    assert.equal(checkCheckoutBinding(secret, binding, 1_001), 'expired');
  });

  it('given a signed link, when its key id, expiry or signature is changed, or another secret checks it, then it is invalid', () => {
    const binding = signCheckoutBinding(secret, keyId, 5_000);
    assert.equal(checkCheckoutBinding(secret, { ...binding, key_id: 'key_01JBBBBBBBBBBBBBBBBBBBBBBB' }, 0), 'invalid');
    assert.equal(checkCheckoutBinding(secret, { ...binding, exp: '5001' }, 0), 'invalid');
    assert.equal(checkCheckoutBinding(secret, { ...binding, exp: '1e9' }, 0), 'invalid');
    assert.equal(checkCheckoutBinding(secret, { ...binding, sig: binding.sig.slice(1) }, 0), 'invalid');
    assert.equal(checkCheckoutBinding(randomBytes(32), binding, 0), 'invalid');
  });
});
