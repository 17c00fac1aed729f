// Child process of the crash test: runs the stream counter over the given SQLite file and
// reports each committed batch on stdout until its parent kills it (SIGKILL, at any moment).
import { SqliteDocumentStore } from '#documents';
import { SqliteEventStore } from '#eventstore';
import { ProjectionRunner } from '../projection-runner.js';
import { streamCounterProjection } from './stream-counter.projection.js';

const [path, batchSize] = process.argv.slice(2);
if (!path) throw new Error('usage: projection-crash.child.js FILE [BATCH_SIZE]');
const eventStore = new SqliteEventStore({ path });
const documentStore = new SqliteDocumentStore({ path });
const runner = new ProjectionRunner({
  eventStore,
  documentStore,
  projections: [streamCounterProjection()],
  batchSize: Number(batchSize ?? 50),
  onCommit: ({ position, events }) => {
    if (events > 0) process.stdout.write(`committed ${position}\n`);
  },
});
await runner.start();
process.stdout.write('started\n');
