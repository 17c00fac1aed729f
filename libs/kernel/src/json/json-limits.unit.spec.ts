import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonLimitViolation } from './json-limits.js';

function nested(depth: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}

describe('free-form JSON limits', () => {
  it('accepts scalars and values up to the depth and key limits', () => {
    assert.equal(jsonLimitViolation('text'), undefined);
    assert.equal(jsonLimitViolation(nested(20)), undefined);
    assert.equal(
      jsonLimitViolation(Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, i]))),
      undefined,
    );
    assert.equal(jsonLimitViolation([[[[1]]]], { maxDepth: 4, maxKeys: 0 }), undefined);
  });

  it('refuses one level too deep, arrays counted as levels, and too many keys across levels', () => {
    assert.equal(jsonLimitViolation(nested(21)), 'nested deeper than 20 levels');
    assert.equal(jsonLimitViolation([[[[[1]]]]], { maxDepth: 4, maxKeys: 10 }), 'nested deeper than 4 levels');
    const wide = {
      a: Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`x${i}`, 1])),
      b: Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`y${i}`, 1])),
    };
    assert.equal(jsonLimitViolation(wide), 'more than 1000 keys in all');
  });

  it('checks a hostile depth without overflowing the stack', () => {
    assert.equal(jsonLimitViolation(nested(100_000)), 'nested deeper than 20 levels');
  });
});
