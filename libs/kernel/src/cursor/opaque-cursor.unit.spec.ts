import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { decodeOpaqueCursor, encodeOpaqueCursor } from './opaque-cursor.js';

const Position = z.strictObject({ p: z.number().int().min(0) });

describe('opaque cursors', () => {
  it('round-trips a body and refuses text that is not a cursor of the expected shape', () => {
    assert.deepEqual(decodeOpaqueCursor(encodeOpaqueCursor({ p: 42 }), Position), { p: 42 });
    for (const bad of [
      '',
      'not-base64!',
      encodeOpaqueCursor({ p: -1 }),
      encodeOpaqueCursor({ p: 1, x: 2 }),
      'bnVsbA',
    ]) {
      assert.equal(decodeOpaqueCursor(bad, Position), undefined, bad);
    }
  });
});
