// Child process of the multi-process tests: appends `count` Pinged events to `stream` in the
// embedded store of `dataDir`, then exits. Usage: node append-events.fixture.js DIR STREAM COUNT
import { join } from 'node:path';
import { SqliteEventStore } from '#eventstore';

const [dataDir, stream, count] = process.argv.slice(2);
const store = new SqliteEventStore({ path: join(dataDir!, 'svc.sqlite') });
try {
  for (let n = 1; n <= Number(count); n++) await store.append(stream!, [{ type: 'Pinged', data: { n } }]);
} finally {
  await store.close();
}
