import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { DOCUMENT_STORE, type DocumentStore } from '#documents';
import { EVENT_STORE, type EventStore, type ReadStreamOptions } from '#eventstore';
import { CreditLedger, type LedgerResult, type Reservation, toCreditsEvent } from './credit-ledger.js';
import type { CreditsCommand } from './credits.decider.js';
import type { CreditsState } from './credits.state.js';
import { type CreditsEvent, creditsStream } from './credits.events.js';

/** One event of an account's ledger with where and when the store recorded it. */
export interface LedgerEntry {
  /** The stored event's id. */
  id: string;
  revision: number;
  recorded_at: string;
  event: CreditsEvent;
}

export type CreditsListener = (accountId: string, events: CreditsEvent[], state: CreditsState) => void;
export type CreditsLoadListener = (accountId: string, state: CreditsState) => void;

/**
 * The process's credits ledger (one CreditLedger, so the hot state is shared by every request).
 * Other parts listen to committed batches (autopay) and to first loads (resuming autopay).
 */
@Injectable()
export class CreditsService implements OnApplicationShutdown {
  readonly ledger: CreditLedger;
  private readonly committed: CreditsListener[] = [];
  private readonly loaded: CreditsLoadListener[] = [];
  private readonly logger = new Logger('Credits');

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(DOCUMENT_STORE) documents: DocumentStore,
  ) {
    this.ledger = new CreditLedger(events, documents, {
      logger: this.logger,
      onCommitted: (accountId, evs, state) => {
        for (const listener of this.committed) this.safely(() => listener(accountId, evs, state));
      },
      onLoaded: (accountId, state) => {
        for (const listener of this.loaded) this.safely(() => listener(accountId, state));
      },
    });
  }

  execute(accountId: string, command: CreditsCommand, options: { hold?: Reservation } = {}): Promise<LedgerResult> {
    return this.ledger.execute(accountId, command, options);
  }

  state(accountId: string, options: { fresh?: boolean } = {}) {
    return this.ledger.state(accountId, options);
  }

  reserve(accountId: string, cents: number) {
    return this.ledger.reserve(accountId, cents);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.ledger.flushSnapshots();
  }

  onCommitted(listener: CreditsListener): void {
    this.committed.push(listener);
  }

  onLoaded(listener: CreditsLoadListener): void {
    this.loaded.push(listener);
  }

  /** The latest ledger entries of an account, newest first (read from its stream). */
  recentEntries(accountId: string, limit: number): Promise<LedgerEntry[]> {
    return this.entries(accountId, { direction: 'backwards', maxCount: limit });
  }

  /** Ledger entries of an account oldest first, from a revision on (read from its stream). */
  entriesFrom(accountId: string, fromRevision: number, limit: number): Promise<LedgerEntry[]> {
    return this.entries(accountId, { fromRevision, maxCount: limit });
  }

  private async entries(accountId: string, options: ReadStreamOptions): Promise<LedgerEntry[]> {
    const out: LedgerEntry[] = [];
    for await (const e of this.events.readStream(creditsStream(accountId), options)) {
      out.push({ id: e.id, revision: e.revision, recorded_at: e.created, event: toCreditsEvent(e) });
    }
    return out;
  }

  private safely(fn: () => void): void {
    try {
      fn();
    } catch (error) {
      this.logger.error(
        `credits listener failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
    }
  }
}
