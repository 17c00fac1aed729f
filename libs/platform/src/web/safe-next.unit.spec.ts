import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { safeNext } from './safe-next.js';

describe('safeNext (the page after signing in)', () => {
  it('keeps a path on this site, with its query', () => {
    assert.equal(safeNext('/dashboard'), '/dashboard');
    assert.equal(safeNext('/dashboard/keys?page=2#new'), '/dashboard/keys?page=2#new');
    assert.equal(safeNext('/a/../dashboard'), '/dashboard');
  });

  it('refuses other sites, schemes, backslashes, control characters and the sign-in pages', () => {
    for (const unsafe of [
      undefined,
      '',
      42,
      'https://evil.example/',
      '//evil.example/x',
      '/\\evil.example',
      '\\\\evil.example',
      'javascript:alert(1)',
      'dashboard',
      '/dash\nboard',
      '/dash\tboard',
      '/login',
      '/login?next=/x',
      '/logout',
      `/${'a'.repeat(2001)}`,
    ]) {
      assert.equal(safeNext(unsafe), undefined, String(unsafe));
    }
  });
});
