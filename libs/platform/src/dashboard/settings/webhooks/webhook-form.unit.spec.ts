import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chosenSecret, generateWebhookSecret } from './webhook-form.js';

const zeros = (n: number) => new Uint8Array(n);

describe('the webhook form: which secret the command gets', () => {
  it('generates one by default when adding (whsec_ + 32 random bytes), and keeps the current one when editing', () => {
    assert.deepEqual(chosenSecret({ secret: '' }, { editing: false }, zeros), {
      secret: generateWebhookSecret(zeros),
      generated: true,
    });
    assert.match(generateWebhookSecret(), /^whsec_[A-Za-z0-9_-]{43}$/);
    assert.deepEqual(chosenSecret({ secret: '' }, { editing: true }), { secret: undefined, generated: false });
  });

  it('uses a typed secret with "own" (or no mode), and never drops one silently', () => {
    assert.deepEqual(chosenSecret({ secret_mode: 'own', secret: 'mine' }, { editing: false }), {
      secret: 'mine',
      generated: false,
    });
    assert.deepEqual(chosenSecret({ secret: 'mine' }, { editing: true }), { secret: 'mine', generated: false });
    for (const secret_mode of ['generate', 'keep'] as const)
      assert.match(
        (chosenSecret({ secret_mode, secret: 'mine' }, { editing: true }) as { error: string }).error,
        /Use my own secret/,
      );
    assert.match(
      (chosenSecret({ secret_mode: 'own', secret: '' }, { editing: false }) as { error: string }).error,
      /enter/,
    );
    assert.ok('error' in chosenSecret({ secret_mode: 'keep', secret: '' }, { editing: false }), 'nothing to keep yet');
  });
});
