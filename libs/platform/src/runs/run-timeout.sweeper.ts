import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig, BACKGROUND_WORK, type BackgroundWork, CLOCK, type Clock } from '#common';
import { decideAndAppend, EVENT_STORE, type EventStore } from '#eventstore';
import { PLATFORM_EVENTS_PROJECTION } from '../platform-events/platform-events.projection.js';
import { ReadYourWrites } from '../shared/read-your-writes.js';
import { RunLookup } from './run-lookup.js';
import { runDecider } from './run.decider.js';
import { runStream } from './run.events.js';
import { RUNS_PROJECTION } from './runs.projection.js';

/** How often the sweeper looks (real time); leases themselves run on the injected clock. */
export const RUN_TIMEOUT_SWEEP_INTERVAL_MS = 30_000;
const PAGE = 100;

/**
 * The runner's lease (D9, SVC_RUN_TIMEOUT_MINUTES): a run claimed by a runner that crashed or
 * lost its network would stay `running` for ever. Every 30 s, where background work runs (the
 * api with projections, the worker), runs still running a lease after their claim are failed
 * with code `timeout` (`agent.failed` to webhooks, like a failure the runner reports); the
 * runner's late report then gets 409. Tests call `sweep()` after moving a FakeClock. Safe with
 * several sweepers: the run's stream decides, and a second time-out is a no-op.
 */
@Injectable()
export class RunTimeoutSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('RunTimeout');
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(BACKGROUND_WORK) private readonly background: BackgroundWork,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'runTimeoutMs'>,
    private readonly runs: RunLookup,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.background.run) return;
    this.timer = setInterval(() => {
      this.sweep().catch((error: unknown) => this.logger.warn(`run time-out sweep failed: ${(error as Error).message}`));
    }, RUN_TIMEOUT_SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Fails every run whose lease ran out; resolves with how many, once the read models show them. */
  sweep(): Promise<number> {
    // One sweep at a time per process: a slow sweep is joined, not doubled.
    this.running ??= this.sweepOnce().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async sweepOnce(): Promise<number> {
    const now = this.clock.now();
    const limitMs = this.config.runTimeoutMs;
    const claimedBefore = new Date(now.getTime() - limitMs).toISOString();
    let timedOut = 0;
    let last: number | null = null;
    let cursor: string | undefined;
    do {
      const page = await this.runs
        .collection()
        .find({ status: 'running', started_at: { $lte: claimedBefore } }, { sort: [['started_at', 1]], limit: PAGE, ...(cursor ? { after: cursor } : {}) });
      for (const doc of page.items) {
        const { position } = await decideAndAppend(this.events, runStream(doc.id), runDecider, { type: 'TimeOutRun', runId: doc.id, accountId: doc.account_id, limitMs, now });
        if (position !== null) {
          timedOut++;
          last = position;
        }
      }
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    await this.readYourWrites.waitFor(last, [RUNS_PROJECTION, PLATFORM_EVENTS_PROJECTION]);
    if (timedOut > 0) this.logger.warn(`${timedOut} run(s) failed: no result from their runner within ${limitMs / 60_000} minutes of the claim`);
    return timedOut;
  }
}
