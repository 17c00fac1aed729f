import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  Optional,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { APP_CONFIG, type AppConfig, CLOCK, type Clock } from '#kernel';
import { decideAndAppend, EVENT_STORE, type EventStore, loadState } from '#eventstore';
import { DEMO_DATA_STREAM } from '../company.events.js';
import { COMPANY_STREAM_PREFIX } from '../company.profile.js';
import { CompanyImporter, type ImportSummary } from '../import/company-importer.js';
import { valueRecords } from '../import/record-sources.js';
import { DEMO_COUNT, DEMO_SEED, demoCompanies } from './demo-companies.js';
import { demoDataDecider } from './demo-data.decider.js';

export type SeedOutcome =
  | { kind: 'seeded'; summary: ImportSummary }
  | { kind: 'done-before' }
  | { kind: 'claimed-elsewhere' }
  | { kind: 'not-fresh' }
  | { kind: 'aborted' };

/**
 * Demo data (item 3, D20): on a fresh store, the api imports DEMO_COUNT generated companies
 * (fixed seed) unless SVC_DEMO_DATA=false, so a first `npm start` answers with real-looking data.
 *
 * - Runs in the background once the HTTP server listens: start-up is not delayed.
 * - Race-free across processes: the claim is a decision (demo-data.decider.ts) appended with
 *   the expected revision; a process that loses the race re-decides on the winner's claim and
 *   stops.
 * - Once per store: `DemoCompaniesSeeded` marks it done. A process stopped mid-way leaves the
 *   claim alone; the next start resumes with the claim's seed and day, and the import appends
 *   only what is missing (records already stored are unchanged).
 * - "Fresh" means no company was ever imported: a store with companies gets
 *   `DemoCompaniesSkipped` and is never seeded.
 */
@Injectable()
export class DemoDataSeeder implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('DemoData');
  private readonly abort = new AbortController();
  private running: Promise<SeedOutcome | void> | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly importer: CompanyImporter,
    @Optional() private readonly adapterHost?: HttpAdapterHost,
  ) {}

  /** The seeding started by this process (tests wait on it), or null. */
  get current(): Promise<SeedOutcome | void> | null {
    return this.running;
  }

  onApplicationBootstrap(): void {
    if (!this.config.demoData) return;
    // Only the HTTP app seeds (not the worker, not the CLI), after it listens.
    const server = this.adapterHost?.httpAdapter?.getHttpServer?.() as
      { once?: (event: string, fn: () => void) => void } | undefined;
    if (typeof server?.once !== 'function') return;
    server.once('listening', () => {
      this.running = this.seed(this.abort.signal).then(
        (outcome) => {
          if (outcome.kind === 'seeded') {
            const s = outcome.summary;
            this.logger.log(
              `demo data: ${s.imported} companies imported (${s.unchanged} already there) in ${s.ms} ms; SVC_DEMO_DATA=false turns this off`,
            );
          }
          return outcome;
        },
        (error: unknown) => {
          if (!this.abort.signal.aborted)
            this.logger.error(`demo data failed: ${error instanceof Error ? error.message : String(error)}`);
        },
      );
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.abort.abort();
    await this.running;
  }

  /** Seeds the store if it is fresh and nobody else does (see the class comment). */
  async seed(signal?: AbortSignal): Promise<SeedOutcome> {
    const { state } = await loadState(this.events, DEMO_DATA_STREAM, demoDataDecider);
    if (state.status === 'done') return { kind: 'done-before' };
    let claim = state.status === 'claimed' ? state.claim : null;
    if (!claim) {
      const storeHasCompanies = await this.hasCompanies();
      const result = await decideAndAppend(this.events, DEMO_DATA_STREAM, demoDataDecider, {
        type: 'ClaimDemoData',
        storeHasCompanies,
        seed: DEMO_SEED,
        count: DEMO_COUNT,
        now: this.clock.now(),
      });
      const ours = result.events[0];
      if (ours?.type === 'DemoCompaniesSkipped') return { kind: 'not-fresh' };
      if (ours?.type !== 'DemoCompaniesClaimed') return { kind: 'claimed-elsewhere' };
      claim = ours.data;
    }
    const summary = await this.importer.run(
      valueRecords(demoCompanies({ seed: claim.seed, count: claim.count, asOf: claim.as_of })),
      {
        source: 'demo',
        ...(signal ? { signal } : {}),
      },
    );
    if (signal?.aborted) return { kind: 'aborted' };
    await decideAndAppend(this.events, DEMO_DATA_STREAM, demoDataDecider, {
      type: 'CompleteDemoData',
      imported: summary.imported,
      updated: summary.updated,
      unchanged: summary.unchanged,
      now: this.clock.now(),
    });
    return { kind: 'seeded', summary };
  }

  private async hasCompanies(): Promise<boolean> {
    for await (const _ of this.events.readAll({ filter: { streamPrefixes: [COMPANY_STREAM_PREFIX] }, maxCount: 1 }))
      return true;
    return false;
  }
}
