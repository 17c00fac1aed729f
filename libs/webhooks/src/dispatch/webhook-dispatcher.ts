import type { Clock } from '#kernel';
import type { EventStore } from '#eventstore';
import type { ProjectionRunner, ProjectionStore, ReadonlyCollection } from '#projections';
import { channelNames, type ChannelNames, type WebhookChannel } from '../engine/channel.js';
import type { WebhookSecrets } from '../engine/secrets.store.js';
import type { DeliveryDoc, PayloadDoc, WebhookDoc } from '../engine/webhook-docs.js';
import type { WebhookSender } from '../sending/webhook-sender.js';
import { AttemptRecorder } from './attempt.recorder.js';
import { AttemptRunner } from './attempt.runner.js';
import { ChannelEventsWatch } from './channel-events.watch.js';
import { DeliveryInputs } from './delivery-inputs.reader.js';
import type { DeliveryHooks } from './delivery-hooks.js';
import { DeliveryLauncher } from './delivery.launcher.js';
import { DispatchUpkeep } from './dispatch.upkeep.js';
import {
  type DispatcherLogger,
  type DispatcherSettings,
  lowWater,
  resolveDispatcherSettings,
  SILENT_LOGGER,
} from './dispatcher.settings.js';
import { DueDeliveryReader } from './due-delivery.reader.js';
import { InterruptedAttemptsRecovery } from './interrupted-attempts.recovery.js';
import type { DeliveryLeases } from './leases.js';
import { LoopWakeup } from './loop.wakeup.js';
import { ReadModelCatchUp } from './read-model.catch-up.js';
import { WebhookDisabler } from './webhook.disabler.js';

export { DEFAULT_DISPATCHER_SETTINGS, type DispatcherLogger, type DispatcherSettings } from './dispatcher.settings.js';
export { SECRET_RETRY_MS } from './delivery-inputs.reader.js';

export interface WebhookDispatcherDeps {
  events: EventStore;
  projections: ProjectionStore;
  runner: ProjectionRunner;
  clock: Clock;
  sender: WebhookSender;
  secrets: WebhookSecrets;
  leases: DeliveryLeases;
  /** Asked right before each send: false = this process must not send now (it lost the channel's lease, ADR 0067). */
  mayAct?: () => boolean;
  hooks?: DeliveryHooks;
  logger?: DispatcherLogger;
  settings?: Partial<DispatcherSettings>;
}

export interface DispatcherStats {
  attempts: number;
  succeeded: number;
  failed: number;
  /** Reads of the read model for due deliveries, and the documents they returned. */
  refills: number;
  scanned: number;
  inFlight: number;
  queued: number;
}

/** How often, at most, the other targets are asked for while busy hosts fill the queue. */
const OTHERS_EVERY_MS = 100;

/**
 * Sends a channel's due deliveries (DESIGN §2 "Fan-out", D12–D14).
 *
 * What is due comes from the channel's read model (`dispatch_at <= now`, by the injected clock),
 * so pending retries survive restarts and fire on time after one. Due deliveries wait in memory
 * in one queue per target host and are started round-robin over hosts, at most `perHost` per
 * host and `concurrency` in all: a slow receiver holds its own slots only. Before each send:
 * - a lease on that very attempt (DeliveryLeases: `webhook-leases.sqlite` in the data directory
 *   when embedded, a document when several dispatchers share MongoDB), so two dispatchers never
 *   send one attempt;
 * - the delivery stream's revision must equal the one the document reflects, so a read model
 *   that is behind (lag, a rebuild in progress) never causes a resend.
 * After each send the attempt is appended to `webhookdelivery-{id}` (status, duration, error,
 * first 2 KiB of the answer, next attempt time); a final failure appends WebhookDisabled.
 *
 * The steps, each in its own file: the loop here (when to read, when to sleep), its wake-ups
 * (LoopWakeup, ChannelEventsWatch), catching the read model up (ReadModelCatchUp), reading what
 * is due (DueDeliveryReader), host-fair queueing and the runs in flight (DeliveryLauncher), one
 * attempt (AttemptRunner), and the chores (DispatchUpkeep: pruning, disable reconciliation,
 * InterruptedAttemptsRecovery).
 *
 * Wakes on: new envelopes / test events / redelivery requests (a filtered `$all` subscription),
 * a finished send, the next known due time, and at least every `pollMs`.
 */
export class WebhookDispatcher {
  readonly names: ChannelNames;
  private readonly settings: DispatcherSettings;
  private readonly logger: DispatcherLogger;
  private readonly deliveries: ReadonlyCollection<DeliveryDoc>;

  private readonly inputs: DeliveryInputs;
  private readonly due: DueDeliveryReader;
  private readonly attempts: AttemptRunner;
  private readonly launcher: DeliveryLauncher;
  private readonly catchUp: ReadModelCatchUp;
  private readonly upkeep: DispatchUpkeep;
  private readonly wakeup = new LoopWakeup();
  private readonly watch: ChannelEventsWatch;

  private loopPromise: Promise<void> | null = null;
  private stopping = false;
  /** New work may be due (an event arrived): read the model again when the queue has room. */
  private dirty = true;
  /** The last refill stopped at the queue's size: more may be due behind it. */
  private more = false;
  private lastOthers = -Infinity;
  /** A webhook changed: drop cached webhook documents once the read model has the change. */
  private webhooksChanged = false;
  private readonly stats = { attempts: 0, succeeded: 0, failed: 0, refills: 0, scanned: 0 };

  constructor(
    readonly channel: WebhookChannel,
    private readonly deps: WebhookDispatcherDeps,
  ) {
    this.names = channelNames(channel);
    const settings = resolveDispatcherSettings(deps.settings);
    this.settings = settings;
    const logger = deps.logger ?? SILENT_LOGGER;
    this.logger = logger;
    const say = (text: string) => `dispatcher ${channel.name}: ${text}`;
    this.deliveries = deps.projections.collection<DeliveryDoc>(this.names.projection, this.names.deliveries);
    const webhooks = deps.projections.collection<WebhookDoc>(this.names.projection, this.names.webhooks);
    const payloads = deps.projections.collection<PayloadDoc>(this.names.projection, this.names.payloads);

    this.catchUp = new ReadModelCatchUp(deps.runner, this.names.projection, (text) => logger.warn(say(text)));
    this.inputs = new DeliveryInputs(webhooks, payloads, deps.secrets, logger, channel.name);
    const recorder = new AttemptRecorder(deps.events, channel.name, settings.retryScale);
    const disabler = new WebhookDisabler(deps.events, deps.clock, webhooks, logger, (position) =>
      this.catchUp.note(position),
    );
    this.due = new DueDeliveryReader(this.deliveries, webhooks, settings);
    this.launcher = new DeliveryLauncher({
      ...settings,
      run: (doc, releaseHost) => this.attempts.run(doc, releaseHost, () => this.stopping),
      isStopping: () => this.stopping,
      failed: (doc, error) => logger.error(say(`delivery ${doc.id}: ${message(error)}`)),
      settled: () => {
        if ((this.dirty || this.more) && (this.launcher.queued <= lowWater(settings) || this.othersDue())) this.wake();
      },
    });
    this.attempts = new AttemptRunner({
      channel,
      events: deps.events,
      clock: deps.clock,
      sender: deps.sender,
      leases: deps.leases,
      mayAct: deps.mayAct,
      hooks: deps.hooks,
      leaseMs: settings.leaseMs,
      inputs: this.inputs,
      recorder,
      disabler,
      logger,
      notes: {
        recorded: (deliveryId, revision) => this.launcher.noteRecorded(deliveryId, revision),
        appended: (position) => this.catchUp.note(position),
        attempted: (succeeded) => {
          this.stats.attempts++;
          if (succeeded) this.stats.succeeded++;
          else this.stats.failed++;
        },
      },
      deliveries: this.deliveries,
    });
    const recovery = new InterruptedAttemptsRecovery({
      leases: deps.leases,
      deliveries: this.deliveries,
      recover: (doc, key) => this.attempts.recover(doc, key),
      isInFlight: (deliveryId) => this.launcher.isInFlight(deliveryId),
      isStopping: () => this.stopping,
      warn: (text) => logger.warn(say(text)),
    });
    this.upkeep = new DispatchUpkeep({
      reconcileDisables: () => disabler.reconcile(channel.name),
      recoverInterrupted: () => recovery.pass(),
      prune: (now) => {
        this.launcher.prune(now);
        disabler.prune(now);
        this.inputs.prune(now);
      },
      leases: deps.leases,
    });
    this.watch = new ChannelEventsWatch(
      deps.events,
      channel,
      (event) => {
        this.catchUp.note(event.position);
        if (event.webhookChanged) this.webhooksChanged = true;
        this.dirty = true;
        this.wake();
      },
      (error) => logger.warn(say(`subscription ended: ${message(error)}; polling every ${settings.pollMs} ms`)),
    );
  }

  get running(): boolean {
    return this.loopPromise !== null;
  }

  getStats(): DispatcherStats {
    return { ...this.stats, inFlight: this.launcher.running, queued: this.launcher.queued };
  }

  start(): void {
    if (this.loopPromise) return;
    this.stopping = false;
    this.loopPromise = this.loop().finally(() => {
      this.loopPromise = null;
    });
  }

  /** Stops taking work; sends in flight finish (bounded by the send timeout) and are recorded. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.watch.close();
    this.wake();
    await this.loopPromise;
    await this.launcher.settle();
    this.launcher.clear();
  }

  /**
   * Sends everything due now and waits for it, repeatedly, until nothing is due and nothing is
   * in flight: tests move a FakeClock and drain; the benchmark drains. Works whether or not the
   * background loop runs (they share the queues and leases).
   */
  async drain(options: { timeoutMs?: number } = {}): Promise<void> {
    const timeoutMs = options.timeoutMs ?? 30_000;
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      if (performance.now() > deadline)
        throw new Error(`webhook dispatcher ${this.channel.name}: drain did not settle within ${timeoutMs} ms`);
      const head = await this.deps.events.headPosition();
      await this.catchUp.waitFor(head, Math.max(1, deadline - performance.now()));
      const before = this.stats.attempts;
      this.webhooksChanged = true;
      await this.upkeep.reconcileDisables();
      await this.upkeep.recoverInterrupted();
      await this.refill(true);
      this.launcher.pump();
      if (this.launcher.running > 0) await this.launcher.settle();
      const moved = this.stats.attempts !== before || (await this.deps.events.headPosition()) !== head;
      if (!moved && this.launcher.running === 0 && this.launcher.runnable() === 0) return;
    }
  }

  private async loop(): Promise<void> {
    let backoff = 200;
    try {
      const head = await this.deps.events.headPosition();
      this.catchUp.note(head);
      this.watch.start(head);
    } catch (error) {
      this.logger.error(`dispatcher ${this.channel.name}: cannot subscribe: ${message(error)}`);
    }
    const low = lowWater(this.settings);
    let timedOut = true;
    while (!this.stopping) {
      let delay = this.settings.pollMs;
      try {
        await this.upkeep.whenDue();
        // Look at the read model when something may have become due (new work, more left behind
        // last time, or the timer) and the queue runs low; when it is full of deliveries for
        // busy hosts only, ask for the other targets' (now and then) instead.
        let added = 0;
        const wanted = this.dirty || this.more || timedOut;
        if (wanted && this.launcher.queued <= low) {
          this.dirty = false;
          if (await this.catchUp.caughtUp()) added = await this.refill(timedOut);
          else this.dirty = true;
        } else if (wanted && this.othersDue()) {
          this.lastOthers = performance.now();
          if (await this.catchUp.caughtUp())
            added = await this.due.otherTargets(this.deps.clock.now().toISOString(), this.launcher.sink);
        }
        this.launcher.pump();
        // Read again at once only after a refill that found work; otherwise wait for a send to
        // finish or new work to arrive (both wake the loop), or for the next due time.
        if (added > 0 && this.launcher.queued <= low && (this.dirty || this.more)) delay = 0;
        else if (!this.dirty && !this.more) delay = await this.nextDueDelay();
        else if (this.launcher.runnable() <= low) delay = Math.min(delay, OTHERS_EVERY_MS);
        backoff = 200;
      } catch (error) {
        if (this.stopping) break;
        this.logger.error(`dispatcher ${this.channel.name}: ${message(error)} (retry in ${backoff} ms)`);
        delay = backoff;
        backoff = Math.min(backoff * 2, 30_000);
      }
      timedOut = this.stopping ? false : await this.wakeup.sleep(delay);
    }
  }

  /**
   * The queue is not low, but little of it can start (its hosts are at their limit): time to
   * ask for the other targets' due deliveries, at most every OTHERS_EVERY_MS.
   */
  private othersDue(): boolean {
    return (
      this.launcher.runnable() <= lowWater(this.settings) && performance.now() - this.lastOthers >= OTHERS_EVERY_MS
    );
  }

  private wake(): void {
    this.wakeup.wake();
  }

  /** Real ms until the next known due time (by the injected clock), at most pollMs. */
  private async nextDueDelay(): Promise<number> {
    if (this.dirty) return 0;
    const now = this.deps.clock.now();
    const next = await this.deliveries.find(
      { dispatch_at: { $gt: now.toISOString() } },
      { sort: [['dispatch_at', 1]], limit: 1 },
    );
    const at = next.items[0]?.dispatch_at;
    if (!at) return this.settings.pollMs;
    return Math.min(this.settings.pollMs, Math.max(0, Date.parse(at) - now.getTime()));
  }

  /** Reads due deliveries into the per-host queues. Returns how many were added. */
  private async refill(fromStart = false): Promise<number> {
    if (this.stopping) return 0;
    this.upkeep.prune();
    // A webhook changed since (url, secret, status): re-read them now that the model caught up.
    if (this.webhooksChanged) {
      this.webhooksChanged = false;
      this.inputs.forgetWebhooks();
    }
    this.stats.refills++;
    const now = this.deps.clock.now().toISOString();
    const { added, scanned, more } = await this.due.refill(now, fromStart, this.launcher.sink);
    this.stats.scanned += scanned;
    this.more = more;
    return added;
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
