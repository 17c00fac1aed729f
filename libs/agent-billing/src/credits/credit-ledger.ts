import type { Doc, DocumentStore } from '#documents';
import { type EventStore, type RecordedEvent, WrongExpectedRevisionError } from '#eventstore';
import { creditsDecider, type CreditsCommand } from './credits.decider.js';
import type { CreditsState, OpenCharge } from './credits.state.js';
import { type CreditsEvent, creditsStream } from './credits.events.js';

export interface LedgerResult {
  /** Events this command appended (none for a no-op such as a repeated fulfilment). */
  events: CreditsEvent[];
  /** State right after this command's events. */
  state: CreditsState;
  /** Global position of the append holding them, or null when nothing was appended. */
  position: number | null;
}

export interface CreditLedgerOptions {
  /** Hot accounts kept folded in memory (LRU). Default 10,000. */
  maxAccounts?: number;
  /** Write a snapshot of the folded state after this many new events (0: never). Default 1,000. */
  snapshotEvery?: number;
  /**
   * How long a batch keeps retrying after WrongExpectedRevisionError (another process wrote
   * first), in ms. Default 30,000: a conflict means the other writer made progress, so only a
   * burst on the same account that outlasts this ends in the error (ADR 0077).
   */
  conflictBudgetMs?: number;
  /** Randomness for the jittered wait before a retry (tests). Default Math.random. */
  random?: () => number;
  /** Told when an account's state is first loaded (autopay resumes an attempt left pending). */
  onLoaded?: (accountId: string, state: CreditsState) => void;
  /** Told about every committed batch (autopay runs from here). */
  onCommitted?: (accountId: string, events: CreditsEvent[], state: CreditsState) => void;
  logger?: { warn(message: string): void };
}

interface Pending {
  command: CreditsCommand;
  /** A hold released the moment this command's outcome is in the state (no double count). */
  hold?: Reservation;
  resolve(result: LedgerResult): void;
  reject(error: unknown): void;
}

interface Entry {
  accountId: string;
  state: CreditsState;
  /** Revision of the last folded event; null when the stream does not exist yet. */
  revision: number | null;
  loaded: Promise<void> | null;
  queue: Pending[];
  flushing: boolean;
  /** Cents held by paid calls in flight in this process (see reserve). */
  reserved: number;
  sinceSnapshot: number;
}

/** A hold on credits while a paid handler runs; release it when the call is charged or failed. */
export interface Reservation {
  release(): void;
}

export const CREDITS_SNAPSHOTS_COLLECTION = 'credits_snapshots';
// Bumped whenever CreditsState changes shape (2: grantedCents; 3: openCharges, refundedCents):
// older snapshots are ignored and the state refolded from the stream.
export const SNAPSHOT_VERSION = 3;
const SNAPSHOT_FLUSH_MS = 250;

export interface SnapshotDoc extends Doc {
  version: number;
  revision: number;
  /** Sets and maps as arrays (documents are JSON). */
  state: Omit<CreditsState, 'paymentRefs' | 'openCharges'> & {
    paymentRefs: string[];
    openCharges: Array<{ key: string } & OpenCharge>;
  };
}

export function toSnapshotState(state: CreditsState): SnapshotDoc['state'] {
  return {
    ...state,
    paymentRefs: [...state.paymentRefs],
    openCharges: [...state.openCharges].map(([key, c]) => ({ key, meter: c.meter, priceCents: c.priceCents })),
  };
}

export function fromSnapshotState(state: SnapshotDoc['state']): CreditsState {
  return {
    ...state,
    paymentRefs: new Set(state.paymentRefs),
    openCharges: new Map(state.openCharges.map((c) => [c.key, { meter: c.meter, priceCents: c.priceCents }])),
  };
}

/**
 * The credits ledger with hot-stream state (DESIGN §4): the folded state and revision of each
 * hot account stay in memory (bounded LRU), so a charge never re-reads its stream.
 *
 * Commands on one account are queued and decided in order against the in-memory state; all
 * that arrive while an append is in flight go out together as ONE append with the exact
 * expected revision (the embedded store group-commits appends of many accounts on top). Each
 * command still gets its own outcome: a charge the balance does not cover fails alone. On
 * WrongExpectedRevisionError (another process wrote) the entry catches up from its revision
 * and the batch is decided again after a jittered wait, for as long as the other writer keeps
 * winning (within conflictBudgetMs), so concurrent paid calls never overspend and a paid call
 * is not refused for losing a race. Every promise
 * resolves only after the append is durable.
 */
export class CreditLedger {
  private readonly entries = new Map<string, Entry>();
  private readonly maxAccounts: number;
  private readonly snapshotEvery: number;
  private readonly conflictBudgetMs: number;
  private readonly random: () => number;
  private readonly pendingSnapshots = new Map<string, SnapshotDoc>();
  private snapshotTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly events: EventStore,
    private readonly documents: DocumentStore | null,
    private readonly options: CreditLedgerOptions = {},
  ) {
    this.maxAccounts = options.maxAccounts ?? 10_000;
    this.snapshotEvery = options.snapshotEvery ?? 1_000;
    this.conflictBudgetMs = options.conflictBudgetMs ?? 30_000;
    this.random = options.random ?? Math.random;
  }

  /** Decides and appends one command; resolves once its events are durable. */
  execute(accountId: string, command: CreditsCommand, options: { hold?: Reservation } = {}): Promise<LedgerResult> {
    const entry = this.entry(accountId);
    return new Promise<LedgerResult>((resolve, reject) => {
      entry.queue.push({ command, resolve, reject, hold: options.hold });
      if (!entry.flushing) {
        entry.flushing = true;
        // Let the commands of this event-loop turn join the batch.
        queueMicrotask(() => void this.flush(entry));
      }
    });
  }

  /**
   * The current state. `fresh` catches up with the stream first (another process may have
   * written): use it before telling a client its balance or refusing it for lack of credits.
   */
  async state(
    accountId: string,
    options: { fresh?: boolean } = {},
  ): Promise<{ state: CreditsState; revision: number | null; reservedCents: number }> {
    const entry = this.entry(accountId);
    await this.ensureLoaded(entry);
    if (options.fresh && !entry.flushing) await this.catchUp(entry);
    return { state: entry.state, revision: entry.revision, reservedCents: entry.reserved };
  }

  /**
   * Holds `cents` for a paid call about to run, if the balance net of the holds of calls in
   * flight covers it; otherwise (after catching up with the stream) answers the balance. Holds
   * are advisory and in memory: the charge is decided by the ledger alone. They let an
   * exhausted account's concurrent calls fail fast, before any work is done.
   */
  async reserve(
    accountId: string,
    cents: number,
  ): Promise<{ ok: true; reservation: Reservation } | { ok: false; state: CreditsState }> {
    const entry = this.entry(accountId);
    await this.ensureLoaded(entry);
    if (entry.state.balanceCents - entry.reserved < cents) {
      if (!entry.flushing) await this.catchUp(entry);
      if (entry.state.balanceCents - entry.reserved < cents) return { ok: false, state: entry.state };
    }
    entry.reserved += cents;
    let released = false;
    return {
      ok: true,
      reservation: {
        release: () => {
          if (released) return;
          released = true;
          entry.reserved -= cents;
        },
      },
    };
  }

  /** Drops the cached state (tests; or after the stream was changed behind our back). */
  forget(accountId?: string): void {
    if (accountId === undefined) this.entries.clear();
    else this.entries.delete(accountId);
  }

  get cachedAccounts(): number {
    return this.entries.size;
  }

  private entry(accountId: string): Entry {
    let entry = this.entries.get(accountId);
    if (entry) {
      // LRU: most recently used last.
      this.entries.delete(accountId);
      this.entries.set(accountId, entry);
      return entry;
    }
    entry = {
      accountId,
      state: creditsDecider.initialState,
      revision: null,
      loaded: null,
      queue: [],
      flushing: false,
      reserved: 0,
      sinceSnapshot: 0,
    };
    this.entries.set(accountId, entry);
    this.evict();
    return entry;
  }

  private evict(): void {
    if (this.entries.size <= this.maxAccounts) return;
    for (const [id, e] of this.entries) {
      if (this.entries.size <= this.maxAccounts) break;
      // Never drop an entry with work or holds in flight.
      if (e.flushing || e.queue.length > 0 || e.reserved > 0) continue;
      this.entries.delete(id);
    }
  }

  private ensureLoaded(entry: Entry): Promise<void> {
    if (!entry.loaded) {
      entry.loaded = this.load(entry).catch((error: unknown) => {
        entry.loaded = null;
        throw error;
      });
    }
    return entry.loaded;
  }

  private async load(entry: Entry): Promise<void> {
    const snapshot = await this.readSnapshot(entry.accountId);
    if (snapshot) {
      entry.state = snapshot.state;
      entry.revision = snapshot.revision;
    }
    await this.catchUp(entry);
    this.options.onLoaded?.(entry.accountId, entry.state);
  }

  /** Folds the events after the entry's revision. */
  private async catchUp(entry: Entry): Promise<void> {
    const from = entry.revision;
    let state = entry.state;
    let revision = from;
    for await (const event of this.events.readStream(creditsStream(entry.accountId), {
      fromRevision: revision === null ? 0 : revision + 1,
    })) {
      state = creditsDecider.evolve(state, toCreditsEvent(event));
      revision = event.revision;
    }
    // An append of this process may have moved the entry on meanwhile: never go back.
    if (entry.revision !== from) return;
    entry.state = state;
    entry.revision = revision;
  }

  private async flush(entry: Entry): Promise<void> {
    try {
      while (entry.queue.length > 0) {
        const batch = entry.queue.splice(0);
        try {
          await this.ensureLoaded(entry);
          await this.decideAndAppend(entry, batch);
        } catch (error) {
          // Store failure: the append may or may not have happened, so the cached state is
          // no longer trusted; the next command reloads it.
          entry.loaded = null;
          entry.state = creditsDecider.initialState;
          entry.revision = null;
          for (const p of batch) {
            p.hold?.release();
            p.reject(error);
          }
        }
      }
    } finally {
      entry.flushing = false;
      this.evict();
    }
  }

  private async decideAndAppend(entry: Entry, batch: Pending[]): Promise<void> {
    const giveUpAt = performance.now() + this.conflictBudgetMs;
    for (let attempt = 0; ; attempt++) {
      let state = entry.state;
      const outcomes: Array<{ events: CreditsEvent[]; state: CreditsState } | { error: unknown }> = [];
      const all: CreditsEvent[] = [];
      for (const p of batch) {
        try {
          const events = creditsDecider.decide(p.command, state);
          for (const e of events) state = creditsDecider.evolve(state, e);
          all.push(...events);
          outcomes.push({ events, state });
        } catch (error) {
          outcomes.push({ error });
        }
      }
      let position: number | null = null;
      if (all.length > 0) {
        try {
          const result = await this.events.append(
            creditsStream(entry.accountId),
            all.map((e) => ({ type: e.type, data: e.data })),
            entry.revision === null ? 'no_stream' : entry.revision,
          );
          position = result.position;
          entry.revision = result.nextExpectedRevision;
          entry.state = state;
          entry.sinceSnapshot += all.length;
        } catch (error) {
          if (error instanceof WrongExpectedRevisionError && performance.now() < giveUpAt) {
            // Another process wrote first. Retrying at once loses again and again while it keeps
            // writing (measured: 600+ losses in a row, ADR 0077): wait a random share of a
            // doubling window so the retry lands between its appends, then catch up right before
            // deciding again; the commands queued meanwhile join the batch (fewer appends to race).
            await new Promise((resolve) => setTimeout(resolve, this.random() * Math.min(50, 2 ** attempt)));
            await this.catchUp(entry);
            batch.push(...entry.queue.splice(0));
            continue;
          }
          throw error;
        }
      }
      batch.forEach((p, i) => {
        const o = outcomes[i]!;
        p.hold?.release();
        if ('error' in o) p.reject(o.error);
        else p.resolve({ events: o.events, state: o.state, position: o.events.length > 0 ? position : null });
      });
      if (all.length > 0) {
        this.options.onCommitted?.(entry.accountId, all, entry.state);
        if (this.snapshotEvery > 0 && entry.sinceSnapshot >= this.snapshotEvery) this.writeSnapshot(entry);
      }
      return;
    }
  }

  private async readSnapshot(accountId: string): Promise<{ state: CreditsState; revision: number } | null> {
    if (!this.documents || this.snapshotEvery === 0) return null;
    const doc = await this.documents.collection<SnapshotDoc>(CREDITS_SNAPSHOTS_COLLECTION).get(accountId);
    if (!doc || doc.version !== SNAPSHOT_VERSION) return null;
    // A snapshot ahead of the stream (a store restored from an older backup) is ignored.
    const head = await this.events.streamRevision(creditsStream(accountId));
    if (head === null || head < doc.revision) return null;
    return { state: fromSnapshotState(doc.state), revision: doc.revision };
  }

  private writeSnapshot(entry: Entry): void {
    if (!this.documents || entry.revision === null) return;
    entry.sinceSnapshot = 0;
    this.pendingSnapshots.set(entry.accountId, {
      id: entry.accountId,
      version: SNAPSHOT_VERSION,
      revision: entry.revision,
      state: toSnapshotState(entry.state),
    });
    if (this.snapshotTimer) return;
    // Coalesced: one embedded-store transaction (one fsync) for every snapshot due meanwhile,
    // instead of one blocking write each.
    // flushSnapshots handles its own failures (logged): nothing to await here.
    this.snapshotTimer = setTimeout(() => void this.flushSnapshots(), SNAPSHOT_FLUSH_MS);
    this.snapshotTimer.unref();
  }

  /** Writes the snapshots waiting (also called on shutdown). */
  async flushSnapshots(): Promise<void> {
    if (this.snapshotTimer) clearTimeout(this.snapshotTimer);
    this.snapshotTimer = null;
    if (!this.documents || this.pendingSnapshots.size === 0) return;
    const docs = [...this.pendingSnapshots.values()];
    this.pendingSnapshots.clear();
    // A cache of derived state: losing a write only means a longer fold on the next load.
    await this.documents
      .applyBatch(
        docs.map((doc) => ({ kind: 'upsert' as const, collection: CREDITS_SNAPSHOTS_COLLECTION, doc })),
        { rebuildable: true },
      )
      .catch((error: unknown) => this.options.logger?.warn(`credits snapshots failed: ${(error as Error).message}`));
  }
}

export function toCreditsEvent(event: RecordedEvent): CreditsEvent {
  return { type: event.type, data: event.data } as CreditsEvent;
}
