import { type AllFilter, matchesFilter, type RecordedEvent } from '../event-store.port.js';

/**
 * An event as committed, its JSON not parsed yet: most commits are read by no subscriber whose
 * filter wants them (a charge, for a dozen projections that ignore charges), so the parse
 * happens on first delivery, once, and the RecordedEvent is shared from then on.
 */
export interface CommittedEvent {
  id: string;
  stream: string;
  revision: number;
  position: number;
  type: string;
  dataJson: string;
  metadataJson: string | null;
  created: string;
  recorded?: RecordedEvent;
}

/** The events of one of this process's commits: every event with a position in (after, last]. */
interface Segment {
  after: number;
  last: number;
  events: CommittedEvent[];
}

export interface TailPage {
  events: RecordedEvent[];
  /** How far the page looked (past events the filter rejected). */
  scannedTo: number;
  /** More may follow at once (the page hit `limit`, or stopped where another process's commits
   *  begin); false only when it reached the end of the newest commit held here. */
  full: boolean;
}

/**
 * The newest commits of this process, kept in memory so live subscriptions get them without
 * reading them back from SQLite and parsing their JSON once per subscription (the embedded
 * mode runs a dozen projections in the API process: each used to re-read every event).
 *
 * A segment is exact, not a guess: the store reads the head position INSIDE the write
 * transaction (`BEGIN IMMEDIATE` holds the file's write lock, so no other connection or process
 * can commit meanwhile), so the segment (head, last position written] holds every event that
 * will ever exist in that range. A read that starts where segments are contiguous is answered
 * here; anything else (another process's commits in between, events older than the tail) falls
 * back to SQL. Events are shared by every subscriber: they must not be mutated.
 */
export class SqliteCommitTail {
  private segments: Segment[] = [];
  private events = 0;

  /** @param maxEvents events kept (the newest segment is kept whatever its size). */
  constructor(private readonly maxEvents: number) {}

  add(after: number, events: CommittedEvent[]): void {
    if (events.length === 0) return;
    this.segments.push({ after, last: events[events.length - 1]!.position, events });
    this.events += events.length;
    let drop = 0;
    while (this.events > this.maxEvents && drop < this.segments.length - 1) {
      this.events -= this.segments[drop]!.events.length;
      drop++;
    }
    if (drop > 0) this.segments = this.segments.slice(drop);
  }

  /**
   * Matching events after `after`, if the tail holds the range right after it; null when it
   * does not (read the store instead).
   */
  read(after: number, filter: AllFilter | undefined, limit: number): TailPage | null {
    let i = this.firstEndingAfter(after);
    if (i < 0 || this.segments[i]!.after > after) return null;
    const events: RecordedEvent[] = [];
    let scannedTo = after;
    for (; i < this.segments.length; i++) {
      const segment = this.segments[i]!;
      // Another process committed in between: those events are read from the file.
      if (segment.after > scannedTo) return { events, scannedTo, full: true };
      for (const event of segment.events) {
        if (event.position <= scannedTo) continue;
        if (matchesFilter(event, filter)) {
          events.push(recorded(event));
          if (events.length === limit) return { events, scannedTo: event.position, full: true };
        }
      }
      scannedTo = segment.last;
    }
    return { events, scannedTo, full: false };
  }

  /** Index of the first segment whose last position is above `after`, or -1. */
  private firstEndingAfter(after: number): number {
    let lo = 0;
    let hi = this.segments.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.segments[mid]!.last > after) hi = mid;
      else lo = mid + 1;
    }
    return lo < this.segments.length ? lo : -1;
  }
}

function recorded(event: CommittedEvent): RecordedEvent {
  event.recorded ??= {
    id: event.id,
    stream: event.stream,
    revision: event.revision,
    position: event.position,
    type: event.type,
    data: JSON.parse(event.dataJson),
    metadata: event.metadataJson === null ? {} : JSON.parse(event.metadataJson),
    created: event.created,
  };
  return event.recorded;
}
