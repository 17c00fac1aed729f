import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SqliteDocumentStore } from '#documents';
import { FakeClock } from '#kernel';
import {
  PASSWORD_RESET_TTL_MS,
  PASSWORD_RESETS_COLLECTION,
  PasswordResetTokens,
} from './password-reset-tokens.store.js';

describe('password reset tokens: single use, expiring, stored as a hash', () => {
  let dir: string;
  let documents: SqliteDocumentStore;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'resets-'));
    documents = new SqliteDocumentStore({ path: join(dir, 'svc.sqlite') });
  });
  after(async () => {
    await documents?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('of ten uses at once exactly one wins; the store holds no token', async () => {
    const tokens = new PasswordResetTokens(documents, new FakeClock('2026-11-02T10:00:00.000Z'));
    const { token } = await tokens.issue('usr_1');
    const stored = await documents.collection(PASSWORD_RESETS_COLLECTION).find({});
    assert.equal(JSON.stringify(stored.items).includes(token), false, 'only its hash');
    assert.equal(await tokens.peek(token), 'usr_1');
    const uses = await Promise.all(Array.from({ length: 10 }, () => tokens.use(token)));
    assert.deepEqual(
      uses.filter((u) => u !== null),
      ['usr_1'],
    );
    assert.equal(await tokens.peek(token), null);
    assert.equal(await tokens.use('x'.repeat(43)), null, 'an unknown token');
  });

  it('expires after its time, unused', async () => {
    const clock = new FakeClock('2026-11-02T10:00:00.000Z');
    const tokens = new PasswordResetTokens(documents, clock);
    const { token } = await tokens.issue('usr_2');
    clock.advance(PASSWORD_RESET_TTL_MS);
    assert.equal(await tokens.peek(token), null);
    assert.equal(await tokens.use(token), null);
  });
});
