// Child process of crash.int.spec.ts: appends under concurrent load until it is killed.
// Prints one line per acknowledged append, only after its promise resolved (i.e. after COMMIT):
//   ack <stream> <firstRevision> <id,id,...>
// Writes to a pipe are synchronous on Linux, so a printed line was acknowledged before any kill.
import { randomUUID } from 'node:crypto';
import { SqliteEventStore, type ExpectedRevision } from '#eventstore';

const [path, prefix] = process.argv.slice(2);
if (!path || !prefix) throw new Error('usage: crash-writer <sqlite-path> <stream-prefix>');

const store = new SqliteEventStore({ path });
const WRITERS = 32;

async function writer(k: number): Promise<void> {
  // Even writers own a stream and use exact revisions; odd ones share four streams with `any`,
  // so one group commit holds several appends to the same stream.
  const own = k % 2 === 0;
  const stream = own ? `${prefix}-own${k}` : `${prefix}-shared${k % 8}`;
  let revision: ExpectedRevision = own ? 'no_stream' : 'any';
  for (let seq = 0; ; seq++) {
    // Multi-event appends (1..5 events) so a torn write would show as a partial append.
    const count = 1 + ((k + seq) % 5);
    const append = randomUUID();
    const events = Array.from({ length: count }, (_, index) => ({
      id: randomUUID(),
      type: 'CrashTestWritten',
      data: { append, index, count, writer: k, seq, pad: 'x'.repeat(64 + ((seq * 37) % 400)) },
    }));
    const result = await store.append(stream, events, revision);
    if (own) revision = result.nextExpectedRevision;
    process.stdout.write(
      `ack ${stream} ${result.nextExpectedRevision - count + 1} ${events.map((e) => e.id).join(',')}\n`,
    );
  }
}

process.stdout.write('ready\n');
await Promise.all(Array.from({ length: WRITERS }, (_, k) => writer(k)));
