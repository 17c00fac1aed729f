import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { SqliteDocumentStore } from '#documents';
import { SqliteEventStore } from '#eventstore';
import type { ProjectionDefinition } from './projection.port.js';
import { ProjectionRunner } from './projection-runner.js';
import { DEAD_LETTERS_COLLECTION } from './projection-store.js';

/** Keeps each `Noted` event's payload as a document: a store that cannot hold one refuses the commit. */
const notes: ProjectionDefinition = {
  name: 'notes',
  version: 1,
  eventTypes: ['Noted', 'Poison'],
  collections: [{ name: 'notes_items' }],
  handle(event, ctx) {
    if (event.type === 'Poison') throw new Error('this event cannot be handled');
    ctx.upsert('notes_items', { id: event.id, payload: (event.data as { payload: unknown }).payload });
  },
};

function deep(depth: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}

async function until<T>(what: string, probe: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const v = await probe();
    if (ok(v)) return v;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

// One bad event must never stop a projection for everyone: after failing on its own
// three times it is set aside with its error, and the events after it are projected.
describe('a poison event is set aside, not retried forever', () => {
  let dir: string;
  let events: SqliteEventStore;
  let docs: SqliteDocumentStore;
  let runner: ProjectionRunner;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dead-letters-'));
    const path = join(dir, 'svc.sqlite');
    events = new SqliteEventStore({ path, pollIntervalMs: 10 });
    docs = new SqliteDocumentStore({ path });
    runner = new ProjectionRunner({
      eventStore: events,
      documentStore: docs,
      projections: [notes],
      retry: { initialMs: 5, maxMs: 20 },
      idleCheckMs: 50,
      generationCacheMs: 0,
    });
    await runner.start();
  });
  afterEach(async () => {
    await runner.stop();
    await docs.close();
    await events.close();
    await rm(dir, { recursive: true, force: true });
  });

  const noted = (n: number) => ({ type: 'Noted', data: { payload: { n } } });
  const items = async () =>
    (await runner.store.collection('notes', 'notes_items').find({}, { limit: 100 })).items.length;

  it('a handler that keeps throwing on one event: set aside with its error, later events projected', async () => {
    await events.append('notes-1', [noted(1), noted(2)]);
    const { position } = await events.append('notes-1', [{ type: 'Poison', data: {} }, noted(3), noted(4)]);
    await runner.waitFor(position, { projections: ['notes'], timeoutMs: 10_000 });
    assert.equal(await items(), 4);
    const letters = (await docs.collection(DEAD_LETTERS_COLLECTION).find({})).items;
    assert.equal(letters.length, 1);
    assert.equal(letters[0]!.event_type, 'Poison');
    assert.match(String(letters[0]!.error), /cannot be handled/);
    const [status] = await runner.status();
    assert.equal(status!.dead_letters, 1);
    assert.notEqual(status!.state, 'failed');
  });

  it("a document the store refuses (JSON nested past SQLite's limit), inside a batch: found, set aside, the rest committed", async () => {
    const { position } = await events.append('notes-2', [
      noted(1),
      { type: 'Noted', data: { payload: deep(1200) } },
      noted(2),
      noted(3),
    ]);
    await runner.waitFor(position, { projections: ['notes'], timeoutMs: 10_000 });
    await until('three notes', items, (n) => n === 3);
    const letters = (await docs.collection(DEAD_LETTERS_COLLECTION).find({})).items;
    assert.equal(letters.length, 1);
    assert.equal(letters[0]!.position, position - 2);
  });
});
