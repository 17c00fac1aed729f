import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from '#kernel';
import { decideAndAppend, EVENT_STORE, type EventStore } from '#eventstore';
import { PLATFORM_EVENTS_PROJECTION } from '../platform-events/platform-events.projection.js';
import { type CommandOptions, ReadYourWrites } from '#projections';
import { RunLookup } from './run-lookup.js';
import { type RunCommand, runDecider } from './run.decider.js';
import { runStream } from './run.events.js';
import { toRunView, type RunView } from './run.view.js';
import { RUNS_PROJECTION } from './runs.projection.js';

type Transition = Exclude<RunCommand, { type: 'QueueRun' }>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * One move of a run's state machine (claim, complete, fail, cancel): decide on the run stream
 * with optimistic concurrency (two claimers of one run: one append wins, the other re-reads and
 * is refused with 409), wait for the read models, answer the run as it is now.
 */
@Injectable()
export class RunTransitions {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly readYourWrites: ReadYourWrites,
    private readonly runs: RunLookup,
  ) {}

  async apply(command: DistributiveOmit<Transition, 'now'>, options: CommandOptions = {}): Promise<RunView> {
    const { position } = await decideAndAppend(this.events, runStream(command.runId), runDecider, {
      ...command,
      now: this.clock.now(),
    } as Transition);
    await this.readYourWrites.waitFor(position, [RUNS_PROJECTION, PLATFORM_EVENTS_PROJECTION], options);
    return toRunView(await this.runs.get(command.accountId, command.runId));
  }
}
