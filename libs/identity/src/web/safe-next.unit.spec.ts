import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { safeNext } from './safe-next.js';

const ORIGIN = 'https://svc.example';

/** What a browser does with a Location of `next` sent from a page of this site. */
function landsHere(next: string): boolean {
  return (
    next.startsWith('/') && !next.startsWith('//') && !next.includes('\\') && new URL(next, ORIGIN).origin === ORIGIN
  );
}

describe('safeNext (the page after signing in)', () => {
  it('keeps a path on this site, with its query', () => {
    assert.equal(safeNext('/dashboard'), '/dashboard');
    assert.equal(safeNext('/dashboard/keys?page=2#new'), '/dashboard/keys?page=2#new');
    assert.equal(safeNext('/a/../dashboard'), '/dashboard');
    assert.equal(safeNext('/dashboard?back=//elsewhere'), '/dashboard?back=//elsewhere', 'a query is no authority');
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

  it('refuses what only becomes another site once normalised (dot segments, encodings)', () => {
    for (const unsafe of [
      '/..//evil.example',
      '/..//evil.example/phish',
      '/%2e%2e//evil.example',
      '/%2E%2E//evil.example',
      '/.%2e//evil.example',
      '/%2e.//evil.example',
      '/.//evil.example',
      '/%2e//evil.example',
      '/./..//evil.example',
      '/a/..//evil.example',
      '/a/b/../..//evil.example',
      '/..//..//evil.example',
      '/\\evil.example',
      '/\t/evil.example',
      '/\n/evil.example',
      '/\r\n//evil.example',
      '/\u0000//evil.example',
      'https:evil.example',
      'https:/evil.example',
      '//evil.example',
      '///evil.example',
      '/\\/evil.example',
      `/..//evil.example/${'a'.repeat(1990)}`,
      `/dashboard/${'ü'.repeat(500)}`, // fine as typed, over the limit once percent-encoded
    ]) {
      assert.equal(safeNext(unsafe), undefined, JSON.stringify(unsafe));
    }
  });

  it('keeps percent-encoded slashes and backslashes as the path segments they are', () => {
    // A browser does not decode %2F or %5C in a Location: these stay paths on this site.
    const cases: Array<[string, string]> = [
      ['/%2E%2E/%2Fevil.example', '/%2Fevil.example'],
      ['/%5cevil.example', '/%5cevil.example'],
      ['/%5Cevil.example', '/%5Cevil.example'],
      ['/%2f%2fevil.example', '/%2f%2fevil.example'],
      ['/%2e%2e%2f%2fevil.example', '/%2e%2e%2f%2fevil.example'],
      ['/..%2f/evil.example', '/..%2f/evil.example'],
    ];
    for (const [value, expected] of cases) assert.equal(safeNext(value), expected, value);
  });

  it('whatever it returns lands on this site', () => {
    const prefixes = ['/', '/.', '/..', '/%2e', '/%2e%2e', '/%2E%2E', '/a/..', '/./..', '/;', '/..;'];
    const middles = ['', '/', '//', '\\', '/\\', '%2f', '%2F/', '%5c', '\t', '%09', '@', ':'];
    for (const prefix of prefixes)
      for (const middle of middles)
        for (const suffix of ['evil.example', '/evil.example', 'evil.example/x?next=//y#//z']) {
          const value = `${prefix}${middle}${suffix}`;
          const next = safeNext(value);
          if (next !== undefined) assert.ok(landsHere(next), `${JSON.stringify(value)} → ${next}`);
        }
  });
});
