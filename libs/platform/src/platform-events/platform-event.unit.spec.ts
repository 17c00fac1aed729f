import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isId } from '#kernel';
import { PLATFORM_EVENT_SOURCES, PLATFORM_EVENT_TYPES, platformEventId, toPlatformEvent } from './platform-event.js';

describe('platform events (mapping and ids)', () => {
  it('every one of the 13 platform types has exactly one source event type', () => {
    assert.deepEqual(Object.values(PLATFORM_EVENT_SOURCES).sort(), [...PLATFORM_EVENT_TYPES].sort());
  });

  it('evt_ ids are derived: the same source event gives the same id, another source or type another one; they sort by time', () => {
    const created = '2026-03-01T10:00:00.000Z';
    const id = platformEventId('6f1d6a1e-0000-4000-8000-000000000001', 'agent.completed', created);
    assert.ok(isId(id, 'evt'), id);
    assert.equal(platformEventId('6f1d6a1e-0000-4000-8000-000000000001', 'agent.completed', created), id);
    assert.notEqual(platformEventId('6f1d6a1e-0000-4000-8000-000000000002', 'agent.completed', created), id);
    assert.notEqual(platformEventId('6f1d6a1e-0000-4000-8000-000000000001', 'agent.failed', created), id);
    assert.ok(platformEventId('x', 'agent.completed', '2026-03-01T10:00:00.001Z') > id);
  });

  it('events that publish nothing map to null', () => {
    assert.equal(toPlatformEvent({ id: 'e1', type: 'RunQueued', data: {} }), null);
    assert.equal(toPlatformEvent({ id: 'e1', type: 'ApprovalExpired', data: {} }), null);
    assert.equal(toPlatformEvent({ id: 'e1', type: 'ApiKeyCreated', data: {} }), null);
  });

  it('an approval without a repository has no repository field at all', () => {
    const published = toPlatformEvent({
      id: 'e1',
      type: 'ApprovalRequested',
      data: {
        approval_id: 'apr_1',
        account_id: 'acct_1',
        action: 'deploy',
        resource: { type: 'deployment', id: 'prod' },
        description: null,
        repository: null,
        run_id: null,
        requested_by: 'key_1',
        requested_at: '2026-03-01T10:00:00.000Z',
        expires_at: '2026-03-08T10:00:00.000Z',
      },
    });
    assert.ok(published);
    assert.equal(published.account_id, 'acct_1');
    assert.equal('repository' in published.envelope, false);
    assert.deepEqual(Object.keys(published.envelope), ['id', 'type', 'created', 'data']);
    assert.equal(published.envelope.created, '2026-03-01T10:00:00.000Z');
  });
});
