import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { decideAndAppend, type EventStore, loadState, SqliteEventStore } from '#eventstore';
import { accountRosterDecider } from './account-roster.decider.js';
import { accountRosterStream } from './account-roster.events.js';

const now = new Date('2026-03-01T10:00:00Z');

describe('account roster stream (expected revision): two concurrent demotions of the two last admins', () => {
  let dir: string;
  let store: EventStore;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'account-roster-'));
    store = new SqliteEventStore({ path: join(dir, 'svc.sqlite') });
  });
  after(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('lets exactly one pass; the other is refused with LAST_ADMIN and the account keeps an admin', async () => {
    const stream = accountRosterStream('acct_race');
    for (const userId of ['usr_a', 'usr_b'])
      await decideAndAppend(store, stream, accountRosterDecider, {
        type: 'AddMember',
        accountId: 'acct_race',
        userId,
        role: 'admin',
        now,
      });
    // Both requests decide on the same read (two admins): the race is forced, not hoped for.
    const known = await loadState(store, stream, accountRosterDecider);
    const demote = (userId: string) =>
      decideAndAppend(
        store,
        stream,
        accountRosterDecider,
        { type: 'ChangeMemberRole', accountId: 'acct_race', userId, role: 'member', now },
        { known },
      );
    const results = await Promise.allSettled([demote('usr_a'), demote('usr_b')]);
    const passed = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    assert.equal(passed.length, 1);
    assert.equal(refused.length, 1);
    assert.equal((refused[0]!.reason as { code: string }).code, 'LAST_ADMIN');
    const { state } = await loadState(store, stream, accountRosterDecider);
    assert.deepEqual([...state.members.values()].sort(), ['admin', 'member']);
  });
});
