import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { SqliteDocumentStore } from '#documents';
import { SqliteEventStore } from '#eventstore';

// The embedded mode keeps events and read models in one SQLite file (DESIGN §2): the two
// adapters live in sibling libs, so their coexistence is tested here, above both.
describe('one SQLite file for the event store and the document store', () => {
  const dirs: string[] = [];
  after(async () => {
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  });

  it('shares the event store file: own tables, both work, events are not collections', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'shared-sqlite-'));
    dirs.push(dir);
    const path = join(dir, 'svc.sqlite');
    const events = new SqliteEventStore({ path });
    const docs = new SqliteDocumentStore({ path });
    try {
      await events.append('s-1', [{ type: 'Happened', data: { n: 1 } }], 'no_stream');
      await docs.collection('things').upsert({ id: 'a' });
      await events.append('s-1', [{ type: 'Happened', data: { n: 2 } }], 0);
      assert.deepEqual(await docs.listCollections(), ['things']);
      assert.equal(await events.headPosition(), 2);
    } finally {
      await docs.close();
      await events.close();
    }
  });
});
