import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type DocumentStore, type IndexSpec, SqliteDocumentStore } from '#documents';
import { FakeClock } from '#kernel';
import { SESSION_ABSOLUTE_MS, SESSIONS_COLLECTION, SessionStore } from './session.store.js';

const user = { userId: 'usr_1', accountId: 'acct_1', email: 'ada@example.com', role: 'admin' as const };

describe('SessionStore: expired sessions are purged, on an index of their expiry', () => {
  let dir: string;
  let documents: SqliteDocumentStore;
  const indexed: Array<[string, IndexSpec[]]> = [];
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sessions-'));
    documents = new SqliteDocumentStore({ path: join(dir, 'svc.sqlite') });
  });
  after(async () => {
    await documents?.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** The store, with the index requests it makes recorded. */
  const watched = (): DocumentStore =>
    new Proxy(documents, {
      get(target, property) {
        if (property === 'ensureIndexes')
          return (collection: string, indexes: IndexSpec[]) => {
            indexed.push([collection, indexes]);
            return target.ensureIndexes(collection, indexes);
          };
        const value = Reflect.get(target, property) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });

  it('a sign-in after an expired one removes the expired document (the index made once)', async () => {
    const clock = new FakeClock('2026-11-02T10:00:00.000Z');
    const sessions = new SessionStore(watched(), clock);
    const old = await sessions.create(user);
    assert.ok(await sessions.find(old));
    clock.advance(SESSION_ABSOLUTE_MS + 60_000);
    const fresh = await sessions.create(user);
    const all = () => documents.collection(SESSIONS_COLLECTION).find({}, { limit: 10 });
    const deadline = Date.now() + 5000;
    while ((await all()).items.length !== 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    assert.equal((await all()).items.length, 1, 'the expired session document is gone');
    assert.equal(await sessions.find(old), null);
    assert.ok(await sessions.find(fresh));
    clock.advance(20 * 60_000);
    await sessions.create(user);
    assert.deepEqual(indexed, [[SESSIONS_COLLECTION, [{ fields: [['expires_at', 1]] }]]]);
  });
});
