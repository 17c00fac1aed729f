import type { Clock } from '#kernel';
import { decideAndAppend, type EventStore } from '#eventstore';
import { checkCompanyRecord } from '../company-record.schema.js';
import { companyDecider, type CompanyCommand } from '../company.decider.js';
import type { CompanyEvent } from '../company.events.js';
import {
  COMPANY_STREAM_PREFIX,
  type CompanyProfileData,
  companyIdFor,
  companyStream,
  profileHash,
} from '../company.profile.js';
import type { SourceRecord } from './record-sources.js';

export interface ImportSummary {
  /** Records read (blank lines are not records). */
  read: number;
  /** New companies (CompanyImported). */
  imported: number;
  /** Companies that changed (CompanyUpdated). */
  updated: number;
  /** Valid records equal to the stored company: nothing appended. */
  unchanged: number;
  /** Records refused (unreadable or invalid), each reported with its line. */
  rejected: number;
  ms: number;
}

export interface ImportRejection {
  line: number;
  reason: string;
}

export interface ImportOptions {
  /** Stored in each event (`file:companies.csv`, `demo`). */
  source: string;
  /** Time stamped on the events (default: the clock, once per run). */
  at?: Date;
  onRejected?: (rejection: ImportRejection) => void;
  /** Stops reading; appends already started finish. */
  signal?: AbortSignal;
  /** Appends in flight at most (default 2000): they group-commit together. */
  maxInFlight?: number;
}

/** What the importer knows of a stored company: its stream revision and profile fingerprint. */
interface Known {
  revision: number;
  hash: string;
}

type Outcome = { kind: 'imported' | 'updated' | 'unchanged'; known: Known | null };

const MAX_CONFLICT_RETRIES = 5;

/**
 * Imports company records (item 2): validates each (a bad one is reported with its line and
 * skipped: one record is one event, so nothing is ever half-imported), and appends
 * `CompanyImported` / `CompanyUpdated` through the company decider.
 *
 * Fast path: one pass over the stored company events at the start gives each company's revision
 * and content hash (memory grows with the companies stored, ~150 bytes each, never with the
 * file). A record whose hash equals the stored one appends nothing and reads nothing; a new
 * company is appended with `no_stream` without reading its stream; only a changed company's
 * stream is read (to diff it). Many appends stay in flight at once so the embedded store
 * group-commits them. Concurrent writers are safe: every append carries the expected revision,
 * and a conflict re-reads that stream and decides again.
 */
export class CompanyImporter {
  constructor(
    private readonly events: EventStore,
    private readonly clock: Clock,
  ) {}

  async run(batches: AsyncIterable<SourceRecord[]>, options: ImportOptions): Promise<ImportSummary> {
    const started = performance.now();
    const summary: ImportSummary = { read: 0, imported: 0, updated: 0, unchanged: 0, rejected: 0, ms: 0 };
    const at = options.at ?? this.clock.now();
    const maxInFlight = options.maxInFlight ?? 2000;
    const index = await this.loadIndex();
    const inFlight = new Map<string, Promise<void>>();
    let failure: unknown = null;
    let slotWaiter: (() => void) | null = null;
    const reject = (line: number, reason: string) => {
      summary.rejected++;
      options.onRejected?.({ line, reason });
    };

    try {
      for await (const batch of batches) {
        if (options.signal?.aborted || failure) break;
        for (const record of batch) {
          summary.read++;
          if ('error' in record) {
            reject(record.line, record.error);
            continue;
          }
          const check = checkCompanyRecord(record.value);
          if (!check.ok) {
            reject(record.line, check.reason);
            continue;
          }
          const profile = check.profile;
          const id = companyIdFor(profile.domain);
          // The same company twice in one file: the later record applies after the earlier.
          const previous = inFlight.get(id);
          if (previous) await previous;
          const known = index.get(id);
          const hash = profileHash(profile);
          if (known && known.hash === hash) {
            summary.unchanged++;
            continue;
          }
          while (inFlight.size >= maxInFlight) await new Promise<void>((resolve) => (slotWaiter = resolve));
          if (failure) break;
          const task = this.write(id, profile, hash, known ?? null, at, options.source)
            .then((outcome) => {
              summary[outcome.kind]++;
              if (outcome.known) index.set(id, outcome.known);
            })
            .catch((error: unknown) => {
              failure ??= error;
            })
            .finally(() => {
              inFlight.delete(id);
              const wake = slotWaiter;
              slotWaiter = null;
              wake?.();
            });
          inFlight.set(id, task);
        }
      }
    } finally {
      await Promise.all(inFlight.values());
    }
    if (failure) throw failure;
    summary.ms = Math.round(performance.now() - started);
    return summary;
  }

  /** Revision and content hash of every stored company, from one pass over their events. */
  async loadIndex(): Promise<Map<string, Known>> {
    const index = new Map<string, Known>();
    for await (const event of this.events.readAll({
      filter: { streamPrefixes: [COMPANY_STREAM_PREFIX], eventTypePrefixes: ['Company'] },
    })) {
      const data = event.data as Partial<CompanyEvent['data']>;
      if (
        (event.type === 'CompanyImported' || event.type === 'CompanyUpdated') &&
        typeof data.company_id === 'string' &&
        typeof data.content_hash === 'string'
      ) {
        index.set(data.company_id, { revision: event.revision, hash: data.content_hash });
      }
    }
    return index;
  }

  private async write(
    id: string,
    profile: CompanyProfileData,
    hash: string,
    known: Known | null,
    at: Date,
    source: string,
  ): Promise<Outcome> {
    const command: CompanyCommand = { type: 'ImportCompany', companyId: id, profile, source, at, contentHash: hash };
    // A company never stored: its stream is new, no read needed. A changed one: its stored
    // profile is read to tell what changed. decideAndAppend re-reads on a conflict.
    const result = await decideAndAppend(this.events, companyStream(id), companyDecider, command, {
      retries: MAX_CONFLICT_RETRIES,
      ...(known ? {} : { known: { state: companyDecider.initialState, revision: null } }),
    });
    const first = result.events[0];
    if (!first || result.revision === null) return { kind: 'unchanged', known: null };
    return {
      kind: first.type === 'CompanyImported' ? 'imported' : 'updated',
      known: { revision: result.revision, hash },
    };
  }
}
