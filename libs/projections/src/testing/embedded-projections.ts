import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Doc, SqliteDocumentStore } from '#documents';
import { SqliteEventStore } from '#eventstore';
import type { ProjectionDefinition } from '../projection.port.js';
import { ProjectionRunner } from '../projection-runner.js';

/** A projection runner over the embedded stores in a fresh directory, for rebuild specs. */
export interface EmbeddedProjections {
  events: SqliteEventStore;
  documents: SqliteDocumentStore;
  runner: ProjectionRunner;
  /** Every document of a projection's active collection, by id, without the runner's bookkeeping. */
  all(projection: string, collection: string): Promise<Doc[]>;
  /** Stops the runner, closes the stores and removes the directory. */
  close(): Promise<void>;
}

export async function openEmbeddedProjections(
  prefix: string,
  projections: ProjectionDefinition[],
): Promise<EmbeddedProjections> {
  const dir = await mkdtemp(join(tmpdir(), `${prefix}-`));
  const path = join(dir, 'svc.sqlite');
  const events = new SqliteEventStore({ path });
  const documents = new SqliteDocumentStore({ path });
  const runner = new ProjectionRunner({ eventStore: events, documentStore: documents, projections });
  return {
    events,
    documents,
    runner,
    async all(projection, collection) {
      const out: Doc[] = [];
      let after: string | undefined;
      do {
        const page = await runner.store
          .collection(projection, collection)
          .find({}, { sort: [['id', 1]], limit: 1000, ...(after ? { after } : {}) });
        out.push(...page.items);
        after = page.nextCursor ?? undefined;
      } while (after);
      return out.map(({ _position, ...doc }) => doc as Doc);
    },
    async close() {
      await runner.stop();
      await documents.close();
      await events.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
