import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SqliteDocumentStore } from '#documents';
import { FakeClock, SecretBox } from '#kernel';
import { IDEMPOTENCY_COLLECTION, IdempotencyStore } from './idempotency.store.js';

describe('idempotency replays are sealed with a server secret too', () => {
  let dir: string;
  let documents: SqliteDocumentStore;
  const clock = new FakeClock('2026-03-01T10:00:00.000Z');
  const secret = (byte: number) => new SecretBox(Buffer.alloc(32, byte)).derive('svc-idempotency-v2');
  const request = { scope: 'agents.pay', key: 'client-key-0123456789abcdef', fingerprint: 'f1' };
  const response = { status: 201, body: { key: { api_key: 'svc_test_THE_SECRET_VALUE' } } };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'idem-secret-'));
    documents = new SqliteDocumentStore({ path: join(dir, 'svc.sqlite') });
  });
  after(async () => {
    await documents.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('the same server replays; the stored document alone holds no key; another server secret cannot open it', async () => {
    const server = new IdempotencyStore(documents, clock, { serverSecret: secret(1) });
    let runs = 0;
    const first = await server.run(request, async () => (runs++, response));
    assert.equal(first.replayed, false);
    const again = await server.run(request, async () => (runs++, response));
    assert.deepEqual({ ...again, replayed: undefined }, { ...response, replayed: undefined });
    assert.equal(again.replayed, true);
    assert.equal(runs, 1);

    const stored = await documents.collection(IDEMPOTENCY_COLLECTION).find({});
    assert.ok(!JSON.stringify(stored.items).includes('THE_SECRET_VALUE'), 'encrypted at rest');

    // The store and the client's Idempotency-Key without this server's secret: nothing to read.
    const elsewhere = new IdempotencyStore(documents, clock, { serverSecret: secret(2), leaseMs: 30_000 });
    clock.advance(31_000);
    const other = await elsewhere.run(request, async () => (runs++, { status: 201, body: { fresh: true } }));
    assert.equal(other.replayed, false, 'not replayed: it could not be opened');
    assert.deepEqual(other.body, { fresh: true });
  });
});
