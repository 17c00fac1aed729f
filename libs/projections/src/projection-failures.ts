import type { WriteOp } from '#documents';
import type { RecordedEvent } from '#eventstore';
import { DEAD_LETTERS_COLLECTION } from './projection-store.js';

/** Failures in a row of one event on its own before it is set aside. */
export const DEAD_LETTER_AFTER = 3;

/** A handler threw: the batch is not committed, the projection is reported failed and retried. */
export class ProjectionHandlerError extends Error {
  constructor(
    readonly projection: string,
    readonly event: RecordedEvent,
    cause: unknown,
  ) {
    super(
      `Projection ${projection} failed on ${event.type} at position ${event.position} (stream ${event.stream}): ${
        cause instanceof Error ? cause.message : String(cause)
      }`,
      { cause },
    );
    this.name = 'ProjectionHandlerError';
  }
}

/** The active generation changed under a live worker (another runner switched it). */
export class GenerationChanged extends Error {}

/**
 * What a worker remembers of failed batches, to find the event that fails and set it aside
 * without holding back the events before it: a failed handler's event gets a batch of its own
 * (the ones before it commit), a refused commit makes its events go one per batch, and an event
 * that fails on its own DEAD_LETTER_AFTER times in a row is poison.
 */
export class BatchFailures {
  /** Position of the event that failed last: it gets a batch of its own so the ones before it commit. */
  private failedAt: number | null = null;
  /** After a batch's commit failed: events up to here go one per batch, to find the one that fails. */
  private isolateUntil: number | null = null;
  /** How often the event at this position failed on its own, in a row. */
  private alone: { position: number; count: number } | null = null;

  /** A batch starting at `first` holds that event only. */
  isolates(first: number): boolean {
    return (
      (this.failedAt !== null && first >= this.failedAt) || (this.isolateUntil !== null && first <= this.isolateUntil)
    );
  }

  /** The event at `position` waits for a batch of its own (it, or one before it, failed). */
  holdsBack(position: number): boolean {
    return this.failedAt !== null && position >= this.failedAt;
  }

  handlerFailed(position: number): void {
    this.failedAt = position;
  }

  /** The store refused a batch ending at `last`: its events go one per batch. */
  commitFailed(last: number): void {
    this.isolateUntil = last;
  }

  /** The event at `position` failed on its own once more: how many times in a row. */
  failedAlone(position: number): number {
    const count = this.alone?.position === position ? this.alone.count + 1 : 1;
    this.alone = { position, count };
    return count;
  }

  setAside(position: number): void {
    this.alone = null;
    if (this.failedAt === position) this.failedAt = null;
  }

  /** A batch ending at `last` committed: what it got past is forgotten. */
  committed(last: number): void {
    this.alone = null;
    if (this.failedAt !== null && last >= this.failedAt) this.failedAt = null;
    if (this.isolateUntil !== null && last >= this.isolateUntil) this.isolateUntil = null;
  }
}

/** The record of an event set aside, committed with the checkpoint that passes it. */
export function deadLetterOp(
  projection: string,
  generation: number,
  event: RecordedEvent,
  message: string,
  now: string,
): WriteOp {
  return {
    kind: 'upsert',
    collection: DEAD_LETTERS_COLLECTION,
    doc: {
      id: `${projection}:${generation}:${event.position}`,
      projection,
      generation,
      position: event.position,
      event_id: event.id,
      event_type: event.type,
      stream: event.stream,
      error: message.slice(0, 2000),
      set_aside_at: now,
    },
  };
}
