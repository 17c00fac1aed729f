import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SCOPES } from '#access';
import { roleGrants, scopesOfRole } from './user-scopes.js';

describe('the scopes a user holds', () => {
  it('an admin holds every scope (through admin)', () => {
    assert.deepEqual(scopesOfRole('admin'), ['admin']);
    for (const scope of SCOPES) assert.equal(roleGrants('admin', scope), true, scope);
  });

  it('a member holds every scope but admin', () => {
    assert.deepEqual(scopesOfRole('member'), [
      'read',
      'write',
      'agents:run',
      'agents:configure',
      'repositories:manage',
    ]);
    assert.equal(roleGrants('member', 'admin'), false);
    for (const scope of SCOPES.filter((s) => s !== 'admin')) assert.equal(roleGrants('member', scope), true, scope);
  });
});
