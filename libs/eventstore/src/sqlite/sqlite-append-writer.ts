import type Database from 'better-sqlite3';
import type { PreparedAppend } from '../append.validation.js';
import {
  EventStoreUnavailableError,
  WrongExpectedRevisionError,
  type AppendResult,
  type ExpectedRevision,
} from '../event-store.port.js';
import type { CommittedEvent } from './sqlite-commit-tail.js';

interface PendingAppend {
  stream: string;
  append: PreparedAppend;
  expected: ExpectedRevision;
  resolve(result: AppendResult): void;
  reject(error: unknown): void;
}

type Outcome = { result: AppendResult } | { error: Error };

type Statement = Database.Statement<unknown[], unknown>;

/** One group commit writes at most this many events (at least one whole append), so a burst
 *  never blocks the event loop for long. */
const MAX_BATCH_EVENTS = 10_000;

/**
 * The embedded event store's writer: group commit (see SqliteEventStore). `append` queues and
 * schedules one flush with `setImmediate`; the flush writes every queued append in ONE
 * transaction and one fsync, each checked against its own expected revision in arrival order,
 * a failing one rolled back to its savepoint without touching the others.
 */
export class SqliteAppendWriter {
  private readonly selRevision: Statement;
  private readonly selById: Statement;
  private readonly selStreamIds: Statement;
  private readonly insert: Statement;
  private readonly selHead: Statement;
  private readonly begin: Statement;
  private readonly commit: Statement;
  private readonly rollback: Statement;
  private readonly savepoint: Statement;
  private readonly release: Statement;
  private readonly rollbackToSavepoint: Statement;
  private queue: PendingAppend[] = [];
  private flushScheduled = false;

  constructor(
    private readonly db: Database.Database,
    /** After a commit that wrote something: the head before it and the events it wrote. */
    private readonly onCommitted: (headBefore: number, written: CommittedEvent[]) => void,
  ) {
    this.selRevision = db.prepare('SELECT max(revision) FROM es_events WHERE stream = ?').pluck();
    this.selById = db.prepare('SELECT stream, revision, position FROM es_events WHERE id = ? AND id_given = 1').raw();
    this.selStreamIds = db
      .prepare('SELECT id, position FROM es_events WHERE stream = ? AND revision >= ? ORDER BY revision LIMIT ?')
      .raw();
    this.insert = db.prepare(
      'INSERT INTO es_events (stream, revision, id, id_given, type, data, metadata, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.selHead = db.prepare('SELECT coalesce(max(position), 0) FROM es_events').pluck();
    this.begin = db.prepare('BEGIN IMMEDIATE');
    this.commit = db.prepare('COMMIT');
    this.rollback = db.prepare('ROLLBACK');
    this.savepoint = db.prepare('SAVEPOINT es_append');
    this.release = db.prepare('RELEASE es_append');
    this.rollbackToSavepoint = db.prepare('ROLLBACK TO es_append');
  }

  /** Resolves once the transaction holding the append has committed. */
  append(stream: string, append: PreparedAppend, expected: ExpectedRevision): Promise<AppendResult> {
    return new Promise<AppendResult>((resolve, reject) => {
      this.queue.push({ stream, append, expected, resolve, reject });
      this.scheduleFlush();
    });
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      this.flushBatch();
      // Appends left over by the batch cap wait for the next turn, letting I/O in between.
      if (this.queue.length > 0) this.scheduleFlush();
    });
  }

  /** Writes every append still queued, now (on close). */
  flushAll(): void {
    while (this.queue.length > 0) this.flushBatch();
  }

  /** One transaction for the appends at the head of the queue. */
  private flushBatch(): void {
    if (this.queue.length === 0) return;
    let take = 0;
    let events = 0;
    while (
      take < this.queue.length &&
      (take === 0 || events + this.queue[take]!.append.events.length <= MAX_BATCH_EVENTS)
    ) {
      events += this.queue[take]!.append.events.length;
      take++;
    }
    const batch = this.queue.splice(0, take);
    const outcomes: Outcome[] = [];
    const written: CommittedEvent[] = [];
    let headBefore: number;
    try {
      this.begin.run();
      // Read under the write lock: every event above it is one this transaction writes.
      headBefore = this.selHead.get() as number;
      const created = new Date().toISOString();
      for (const pending of batch) outcomes.push(this.applyOne(pending, created, written));
      this.commit.run();
    } catch (error) {
      if (this.db.inTransaction) {
        try {
          this.rollback.run();
        } catch {
          // The connection rolls back by itself on close; nothing more to do here.
        }
      }
      const failure = new EventStoreUnavailableError(
        `event store write failed, nothing was written: ${(error as Error).message}`,
        {
          cause: error,
        },
      );
      for (const pending of batch) pending.reject(failure);
      return;
    }
    let wrote = false;
    for (let i = 0; i < batch.length; i++) {
      const outcome = outcomes[i]!;
      if ('error' in outcome) batch[i]!.reject(outcome.error);
      else {
        batch[i]!.resolve(outcome.result);
        wrote = true;
      }
    }
    if (wrote) this.onCommitted(headBefore, written);
  }

  /** Checks and writes one append inside the open transaction. Returns its outcome, or throws
   *  (aborting the whole batch) only on a storage failure. */
  private applyOne(pending: PendingAppend, created: string, written: CommittedEvent[]): Outcome {
    const { stream, expected } = pending;
    const events = pending.append.events;
    const current = this.selRevision.get(stream) as number | null;

    if (pending.append.callerIds) {
      const original = this.findOriginalAppend(pending, current);
      if (original) return { result: original };
    }
    if (
      (expected === 'no_stream' && current !== null) ||
      (expected === 'stream_exists' && current === null) ||
      (typeof expected === 'number' && current !== expected)
    ) {
      return { error: new WrongExpectedRevisionError(stream, expected, current) };
    }

    // A single INSERT is atomic by itself; several need a savepoint to be all-or-nothing.
    const multi = events.length > 1;
    if (multi) this.savepoint.run();
    try {
      let revision = current ?? -1;
      let position = 0;
      const positions: number[] = [];
      for (const event of events) {
        revision++;
        const info = this.insert.run(
          stream,
          revision,
          event.id,
          event.idGiven ? 1 : null,
          event.type,
          event.dataJson,
          event.metadataJson,
          created,
        );
        position = Number(info.lastInsertRowid);
        positions.push(position);
      }
      if (multi) this.release.run();
      // Only now is this append certain to be in the transaction (a savepoint may roll back).
      const first = revision - events.length + 1;
      events.forEach((event, i) =>
        written.push({
          id: event.id,
          stream,
          revision: first + i,
          position: positions[i]!,
          type: event.type,
          dataJson: event.dataJson,
          metadataJson: event.metadataJson,
          created,
        }),
      );
      return { result: { nextExpectedRevision: revision, position } };
    } catch (error) {
      if (multi) {
        this.rollbackToSavepoint.run();
        this.release.run();
      }
      const code = (error as { code?: string }).code;
      if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
        return {
          error: new Error(
            `append to ${stream}: ${duplicateIdMessage(
              this.selById,
              events.map((e) => e.id),
            )}`,
          ),
        };
      }
      throw error;
    }
  }

  /**
   * Idempotent re-append (EventStoreDB semantics): when the events' ids already sit in this
   * stream, in order, at the place the expected revision points to, the append happened
   * before (a retry after a lost reply): return its original result and write nothing.
   */
  private findOriginalAppend(pending: PendingAppend, current: number | null): AppendResult | null {
    if (current === null) return null;
    const events = pending.append.events;
    const hit = this.selById.get(events[0]!.id) as [stream: string, revision: number, position: number] | undefined;
    if (!hit || hit[0] !== pending.stream) return null;
    const first = hit[1];
    const expected = pending.expected;
    const samePlace =
      expected === 'any' ||
      (expected === 'no_stream' && first === 0) ||
      (expected === 'stream_exists' && first > 0) ||
      (typeof expected === 'number' && expected === first - 1);
    if (!samePlace) return null;
    const rows = this.selStreamIds.all(pending.stream, first, events.length) as Array<[id: string, position: number]>;
    if (rows.length !== events.length || rows.some((row, i) => row[0] !== events[i]!.id)) return null;
    return { nextExpectedRevision: first + events.length - 1, position: rows[rows.length - 1]![1] };
  }
}

function duplicateIdMessage(selById: Statement, ids: string[]): string {
  for (const id of ids) {
    const hit = selById.get(id) as [stream: string, revision: number] | undefined;
    if (hit)
      return `event id ${id} is already used by ${hit[0]}@${hit[1]} (a re-append is idempotent only at the same place)`;
  }
  return 'an event id is already used';
}
