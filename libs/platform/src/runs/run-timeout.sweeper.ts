import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig, CLOCK, type Clock } from '#kernel';
import { BACKGROUND_WORK, type BackgroundWork } from '#projections';
import { decideAndAppend, EVENT_STORE, type EventStore } from '#eventstore';
import { PLATFORM_EVENTS_PROJECTION } from '../platform-events/platform-events.projection.js';
import { PeriodicSweeper, ReadYourWrites } from '#projections';
import { RunLookup } from './run-lookup.js';
import { runDecider } from './run.decider.js';
import { runStream } from './run.events.js';
import { RUNS_PROJECTION } from './runs.projection.js';

/** How often the sweeper looks (real time); leases themselves run on the injected clock. */
export const RUN_TIMEOUT_SWEEP_INTERVAL_MS = 30_000;

/**
 * The runner's lease (SVC_RUN_TIMEOUT_MINUTES): a run claimed by a runner that crashed or lost
 * its network would stay `running` for ever. Every 30 s, runs still running a lease after their
 * claim are failed with code `timeout` (`agent.failed` to webhooks, like a failure the runner
 * reports); the runner's late report then gets 409. Safe with several sweepers: the run's stream
 * decides, and a second time-out is a no-op.
 */
@Injectable()
export class RunTimeoutSweeper extends PeriodicSweeper {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(BACKGROUND_WORK) background: BackgroundWork,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'runTimeoutMs'>,
    private readonly runs: RunLookup,
    private readonly readYourWrites: ReadYourWrites,
  ) {
    super('RunTimeout', RUN_TIMEOUT_SWEEP_INTERVAL_MS, background);
  }

  /** Fails every run whose lease ran out; resolves with how many, once the read models show them. */
  protected async sweepOnce(): Promise<number> {
    const now = this.clock.now();
    const limitMs = this.config.runTimeoutMs;
    const claimedBefore = new Date(now.getTime() - limitMs).toISOString();
    const { changed, last } = await this.eachPage(
      (after) =>
        this.runs
          .collection()
          .find(
            { status: 'running', started_at: { $lte: claimedBefore } },
            { sort: [['started_at', 1]], limit: 100, ...(after ? { after } : {}) },
          ),
      async (doc) =>
        (
          await decideAndAppend(this.events, runStream(doc.id), runDecider, {
            type: 'TimeOutRun',
            runId: doc.id,
            accountId: doc.account_id,
            limitMs,
            now,
          })
        ).position,
    );
    await this.readYourWrites.waitFor(last, [RUNS_PROJECTION, PLATFORM_EVENTS_PROJECTION]);
    if (changed > 0)
      this.logger.warn(
        `${changed} run(s) failed: no result from their runner within ${limitMs / 60_000} minutes of the claim`,
      );
    return changed;
  }
}
