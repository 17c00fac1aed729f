// Over 400 lines on purpose: what is left here is one state machine (the loop, its wake-ups, the
// dirty / more flags, catching the read model up to what this dispatcher appended) that reads
// best in one place. The parts with a job of their own sit beside it: host-fair.queue,
// due-delivery.reader, attempt.runner, attempt.recorder, webhook.disabler, delivery-inputs.reader.
import type { Clock } from '#kernel';
import type { EventStore } from '#eventstore';
import type { ProjectionRunner, ProjectionStore, ReadonlyCollection } from '#projections';
import { channelNames, type ChannelNames, type WebhookChannel } from '../engine/channel.js';
import { DELIVERIES_RELEASED } from '../engine/delivery.events.js';
import type { WebhookSecrets } from '../engine/secrets.store.js';
import type { DeliveryDoc, PayloadDoc, WebhookDoc } from '../engine/webhook-docs.js';
import type { WebhookSender } from '../sending/webhook-sender.js';
import { parseAttemptKey } from './attempt-keys.js';
import { AttemptRecorder } from './attempt.recorder.js';
import { AttemptRunner } from './attempt.runner.js';
import { DeliveryInputs } from './delivery-inputs.reader.js';
import type { DeliveryHooks } from './delivery-hooks.js';
import { DueDeliveryReader, type DueSink } from './due-delivery.reader.js';
import { HostFairQueue } from './host-fair.queue.js';
import type { DeliveryLeases } from './leases.js';
import { WebhookDisabler } from './webhook.disabler.js';

export interface DispatcherSettings {
  /** Requests in flight at most (SVC_WEBHOOK_CONCURRENCY). */
  concurrency: number;
  /** Requests in flight per target host at most (SVC_WEBHOOK_CONCURRENCY_PER_HOST). */
  perHost: number;
  /** Requests in flight per owner (account or tenant) at most (SVC_WEBHOOK_CONCURRENCY_PER_ACCOUNT). */
  perOwner: number;
  /** Longest idle wait between looks at the read model (real ms). */
  pollMs: number;
  /** Lease time of one attempt (real ms); far above the send timeout. */
  leaseMs: number;
  /** Due deliveries read per query. */
  pageSize: number;
  /** Due deliveries looked at per refill before asking per target host. */
  scanLimit: number;
  /** Deliveries waiting in memory at most, and per target host. */
  maxQueued: number;
  maxQueuedPerHost: number;
  /** Scales the retry schedule (SVC_WEBHOOK_RETRY_SCALE, test mode only). */
  retryScale: number;
}

export const DEFAULT_DISPATCHER_SETTINGS: DispatcherSettings = {
  concurrency: 256,
  perHost: 16,
  perOwner: 64,
  pollMs: 1000,
  leaseMs: 60_000,
  pageSize: 500,
  scanLimit: 5000,
  maxQueued: 512,
  maxQueuedPerHost: 256,
  retryScale: 1,
};

export interface DispatcherLogger {
  log(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

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

const SILENT: DispatcherLogger = { log: () => undefined, warn: () => undefined, error: () => undefined };
/** How often final failures whose WebhookDisabled is missing are looked for (real ms). */
const RECONCILE_EVERY_MS = 30_000;
/** How often attempts sent and never recorded (a process killed meanwhile) are looked for (real ms). */
const RECOVER_EVERY_MS = 5000;
/** Interrupted attempts looked at per pass. */
const RECOVER_BATCH = 200;
/** Longest wait for the read model to catch up before reading due deliveries (then again). */
const CATCH_UP_MS = 5000;
/** How often, at most, the other targets are asked for while busy hosts fill the queue. */
const OTHERS_EVERY_MS = 100;

interface Task {
  doc: DeliveryDoc;
  releaseHost?: () => void;
}

export { SECRET_RETRY_MS } from './delivery-inputs.reader.js';

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
 * Wakes on: new envelopes / test events / redelivery requests (a filtered `$all` subscription),
 * a finished send, the next known due time, and at least every `pollMs`.
 */
export class WebhookDispatcher {
  readonly names: ChannelNames;
  private readonly settings: DispatcherSettings;
  private readonly logger: DispatcherLogger;
  private readonly deliveries: ReadonlyCollection<DeliveryDoc>;
  private readonly webhooks: ReadonlyCollection<WebhookDoc>;

  private readonly queue: HostFairQueue<DeliveryDoc>;
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly inputs: DeliveryInputs;
  private readonly recorder: AttemptRecorder;
  private readonly disabler: WebhookDisabler;
  private readonly due: DueDeliveryReader;
  private readonly attempts: AttemptRunner;
  /** Where the reader puts due deliveries: this dispatcher's queue. */
  private readonly sink: DueSink = {
    room: () => this.settings.maxQueued - this.queue.size,
    enqueue: (doc) => this.enqueue(doc),
    waitingFor: (host) => this.queue.waitingFor(host),
  };
  /** Deliveries this dispatcher recorded an event for → that revision, until the read model shows it. */
  private readonly recorded = new Map<string, { revision: number; at: number }>();

  private loopPromise: Promise<void> | null = null;
  private subscription: { close(): Promise<void> } | null = null;
  private stopping = false;
  /** New work may be due (an event arrived): read the model again when the queue has room. */
  private dirty = true;
  /** The last refill stopped at the queue's size: more may be due behind it. */
  private more = false;
  private wakeUp: (() => void) | null = null;
  private lastReconcile = -Infinity;
  private lastRecovery = -Infinity;
  private lastSweep = performance.now();
  private lastOthers = -Infinity;
  /** A webhook changed: drop cached webhook documents once the read model has the change. */
  private webhooksChanged = false;
  /** Highest position this dispatcher appended or was told about: the read model must reach it. */
  private wantPosition = 0;
  /** Since when the read model has been found behind (real ms); null while caught up. */
  private behindSince: number | null = null;
  private readonly stats = { attempts: 0, succeeded: 0, failed: 0, refills: 0, scanned: 0 };

  constructor(
    readonly channel: WebhookChannel,
    private readonly deps: WebhookDispatcherDeps,
  ) {
    this.names = channelNames(channel);
    const settings = { ...DEFAULT_DISPATCHER_SETTINGS, ...deps.settings };
    // The queue holds about two rounds of sends; one host at most half of it (room for others).
    if (deps.settings?.maxQueued === undefined) settings.maxQueued = Math.max(64, 2 * settings.concurrency);
    if (deps.settings?.maxQueuedPerHost === undefined)
      settings.maxQueuedPerHost = Math.max(8, Math.floor(settings.maxQueued / 2));
    this.settings = settings;
    this.logger = deps.logger ?? SILENT;
    this.deliveries = deps.projections.collection<DeliveryDoc>(this.names.projection, this.names.deliveries);
    this.webhooks = deps.projections.collection<WebhookDoc>(this.names.projection, this.names.webhooks);
    const payloads = deps.projections.collection<PayloadDoc>(this.names.projection, this.names.payloads);
    this.queue = new HostFairQueue({
      perHost: settings.perHost,
      maxQueuedPerHost: settings.maxQueuedPerHost,
      perOwner: settings.perOwner,
    });
    this.inputs = new DeliveryInputs(this.webhooks, payloads, deps.secrets, this.logger, channel.name);
    this.recorder = new AttemptRecorder(deps.events, channel.name, settings.retryScale);
    this.disabler = new WebhookDisabler(deps.events, deps.clock, this.webhooks, this.logger, (position) =>
      this.noteWanted(position),
    );
    this.due = new DueDeliveryReader(this.deliveries, this.webhooks, settings);
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
      recorder: this.recorder,
      disabler: this.disabler,
      logger: this.logger,
      notes: {
        recorded: (deliveryId, revision) => this.recorded.set(deliveryId, { revision, at: performance.now() }),
        appended: (position) => this.noteWanted(position),
        attempted: (succeeded) => {
          this.stats.attempts++;
          if (succeeded) this.stats.succeeded++;
          else this.stats.failed++;
        },
      },
      deliveries: this.deliveries,
    });
  }

  get running(): boolean {
    return this.loopPromise !== null;
  }

  getStats(): DispatcherStats {
    return { ...this.stats, inFlight: this.inFlight.size, queued: this.queue.size };
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
    await this.subscription?.close().catch(() => undefined);
    this.wake();
    await this.loopPromise;
    await Promise.allSettled([...this.inFlight.values()]);
    this.queue.clear();
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
      await this.catchUp(head, Math.max(1, deadline - performance.now()));
      const before = this.stats.attempts;
      this.webhooksChanged = true;
      await this.reconcileDisables();
      await this.recoverInterrupted();
      await this.refill(true);
      this.pump();
      if (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight.values()]);
      const moved = this.stats.attempts !== before || (await this.deps.events.headPosition()) !== head;
      if (!moved && this.inFlight.size === 0 && this.runnable() === 0) return;
    }
  }

  // ---- background loop -------------------------------------------------------------------

  private async loop(): Promise<void> {
    let backoff = 200;
    try {
      const head = await this.deps.events.headPosition();
      this.wantPosition = Math.max(this.wantPosition, head);
      this.watch(head);
    } catch (error) {
      this.logger.error(`dispatcher ${this.channel.name}: cannot subscribe: ${message(error)}`);
    }
    let timedOut = true;
    while (!this.stopping) {
      let delay = this.settings.pollMs;
      try {
        if (performance.now() - this.lastReconcile > RECONCILE_EVERY_MS) await this.reconcileDisables();
        if (performance.now() - this.lastRecovery > RECOVER_EVERY_MS) await this.recoverInterrupted();
        // Look at the read model when something may have become due (new work, more left behind
        // last time, or the timer) and the queue runs low; when it is full of deliveries for
        // busy hosts only, ask for the other targets' (now and then) instead.
        let added = 0;
        const wanted = this.dirty || this.more || timedOut;
        if (wanted && this.queue.size <= this.lowWater()) {
          this.dirty = false;
          if (await this.caughtUp()) added = await this.refill(timedOut);
          else this.dirty = true;
        } else if (wanted && this.othersDue()) {
          this.lastOthers = performance.now();
          if (await this.caughtUp())
            added = await this.due.otherTargets(this.deps.clock.now().toISOString(), this.sink);
        }
        this.pump();
        // Read again at once only after a refill that found work; otherwise wait for a send to
        // finish or new work to arrive (both wake the loop), or for the next due time.
        if (added > 0 && this.queue.size <= this.lowWater() && (this.dirty || this.more)) delay = 0;
        else if (!this.dirty && !this.more) delay = await this.nextDueDelay();
        else if (this.runnable() <= this.lowWater()) delay = Math.min(delay, OTHERS_EVERY_MS);
        backoff = 200;
      } catch (error) {
        if (this.stopping) break;
        this.logger.error(`dispatcher ${this.channel.name}: ${message(error)} (retry in ${backoff} ms)`);
        delay = backoff;
        backoff = Math.min(backoff * 2, 30_000);
      }
      timedOut = await this.sleep(delay);
    }
  }

  /** Below this many queued deliveries the read model is read again. */
  private lowWater(): number {
    return Math.floor(this.settings.maxQueued / 4);
  }

  /**
   * The queue is not low, but little of it can start (its hosts are at their limit): time to
   * ask for the other targets' due deliveries, at most every OTHERS_EVERY_MS.
   */
  private othersDue(): boolean {
    return this.runnable() <= this.lowWater() && performance.now() - this.lastOthers >= OTHERS_EVERY_MS;
  }

  /**
   * Envelopes, test events and redelivery requests make deliveries due at once; changes of a
   * webhook (url, secret, disabled, deleted) must reach the next send.
   */
  private watch(after: number): void {
    const prefixes = [
      ...this.channel.source.storedEventTypes,
      // Released holds are due again.
      ...(this.channel.releases?.releaseEventTypes ?? []),
      DELIVERIES_RELEASED,
      'WebhookTestRequested',
      'WebhookRedeliveryRequested',
      'WebhookUpdated',
      'WebhookDisabled',
      'WebhookReEnabled',
      'WebhookDeleted',
    ];
    const subscription = this.deps.events.subscribeToAll({ after, filter: { eventTypePrefixes: prefixes } });
    this.subscription = subscription;
    void (async () => {
      try {
        for await (const event of subscription) {
          if (event.position > this.wantPosition) this.wantPosition = event.position;
          if (
            event.type.startsWith('Webhook') &&
            event.type !== 'WebhookTestRequested' &&
            event.type !== 'WebhookRedeliveryRequested' &&
            event.type !== DELIVERIES_RELEASED
          )
            this.webhooksChanged = true;
          this.dirty = true;
          this.wake();
        }
      } catch (error) {
        if (!this.stopping)
          this.logger.warn(
            `dispatcher ${this.channel.name}: subscription ended: ${message(error)}; polling every ${this.settings.pollMs} ms`,
          );
      }
    })();
  }

  /** Resolves true when the time ran out, false when woken. */
  private sleep(ms: number): Promise<boolean> {
    if (this.stopping) return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = (timedOut: boolean) => {
        clearTimeout(timer);
        this.wakeUp = null;
        resolve(timedOut);
      };
      const timer = setTimeout(() => done(true), Math.max(0, ms));
      this.wakeUp = () => done(false);
    });
  }

  private wake(): void {
    this.wakeUp?.();
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

  /**
   * Whether the read model reached every position this dispatcher knows of (the head when it
   * started, what it appended, what it was told about), waiting up to CATCH_UP_MS. Due deliveries
   * are read only then: a model behind the head may not show a disable or a delete yet (after a
   * restart it replays what the previous process did), and sending from it broke the schedule
   * (found by `npm run chaos webhooks-flapping`: attempts while the webhook was disabled).
   */
  private async caughtUp(): Promise<boolean> {
    try {
      await this.catchUp(this.wantPosition, CATCH_UP_MS);
      this.behindSince = null;
      return true;
    } catch {
      if (this.behindSince === null) {
        this.behindSince = performance.now();
        this.logger.warn(
          `dispatcher ${this.channel.name}: the read model is behind position ${this.wantPosition}; no due deliveries are read until it catches up`,
        );
      }
      return false;
    }
  }

  private async catchUp(position: number, timeoutMs: number): Promise<void> {
    if (position <= 0) return;
    await this.deps.runner.waitFor(position, { projections: [this.names.projection], timeoutMs });
  }

  // ---- queues ----------------------------------------------------------------------------

  private runnable(): number {
    return this.queue.runnable();
  }

  /** Reads due deliveries into the per-host queues. Returns how many were added. */
  private async refill(fromStart = false): Promise<number> {
    if (this.stopping) return 0;
    this.prune();
    // A webhook changed since (url, secret, status): re-read them now that the model caught up.
    if (this.webhooksChanged) {
      this.webhooksChanged = false;
      this.inputs.forgetWebhooks();
    }
    this.stats.refills++;
    const { added, scanned, more } = await this.due.refill(this.deps.clock.now().toISOString(), fromStart, this.sink);
    this.stats.scanned += scanned;
    this.more = more;
    return added;
  }

  private enqueue(doc: DeliveryDoc): 'added' | 'known' | 'stale' | 'host_full' {
    if (this.inFlight.has(doc.id) || this.queue.has(doc.id)) return 'known';
    const mine = this.recorded.get(doc.id);
    if (mine) {
      if (doc.revision < mine.revision) return 'stale';
      this.recorded.delete(doc.id);
    }
    return this.queue.push(doc);
  }

  /** Starts queued deliveries, one per host in turn, within the global, per-host and per-owner limits. */
  private pump(): void {
    if (this.stopping) return;
    for (const doc of this.queue.take(this.settings.concurrency - this.inFlight.size)) this.launch(doc.target, { doc });
  }

  /** Runs one delivery; its host's slot is held (by the queue's take) until releaseHost. */
  private launch(host: string, task: Task): void {
    let held = true;
    // The host's slot is for the HTTP exchange only: recording the attempt does not hold it.
    const releaseHost = () => {
      if (!held) return;
      held = false;
      this.queue.release(task.doc);
      this.pump();
    };
    const run = this.attempts
      .run(task.doc, releaseHost, () => this.stopping)
      .catch((error: unknown) => {
        this.logger.error(`dispatcher ${this.channel.name}: delivery ${task.doc.id}: ${message(error)}`);
      })
      .finally(() => {
        this.inFlight.delete(task.doc.id);
        releaseHost();
        this.pump();
        if ((this.dirty || this.more) && (this.queue.size <= this.lowWater() || this.othersDue())) this.wake();
      });
    this.inFlight.set(task.doc.id, run);
  }

  private prune(): void {
    const t = performance.now();
    for (const [id, r] of this.recorded) if (t - r.at > 60_000) this.recorded.delete(id);
    this.disabler.prune(t);
    this.inputs.prune(t);
    if (t - this.lastSweep > 60_000) {
      this.lastSweep = t;
      void this.deps.leases.sweep().catch(() => undefined);
    }
  }

  /** Final failures whose WebhookDisabled is not in the log yet (a crash in between): append it now. */
  private async reconcileDisables(): Promise<void> {
    this.lastReconcile = performance.now();
    await this.disabler.reconcile(this.channel.name);
  }

  /**
   * Attempts sent by a process that stopped before recording them (ADR 0070): each recorded now
   * with an unknown outcome, by the AttemptRunner, whatever its delivery's state (a disable may
   * have cancelled it meanwhile, so it is not due and no refill brings it back).
   */
  private async recoverInterrupted(): Promise<void> {
    this.lastRecovery = performance.now();
    if (this.stopping) return;
    for (const key of await this.deps.leases.interrupted(RECOVER_BATCH)) {
      const { deliveryId } = parseAttemptKey(key);
      if (this.inFlight.has(deliveryId)) continue;
      try {
        // Null: another channel's delivery (every dispatcher sees every lease), or not projected yet.
        const doc = await this.deliveries.get(deliveryId);
        if (doc) await this.attempts.recover(doc, key);
      } catch (error) {
        // The others go on; this one is listed again on the next pass.
        this.logger.warn(
          `dispatcher ${this.channel.name}: interrupted attempt ${key} not recorded yet: ${message(error)}`,
        );
      }
    }
  }

  /** A position this dispatcher appended at: the read model must pass it before the next refill. */
  private noteWanted(position: number): void {
    if (position > this.wantPosition) this.wantPosition = position;
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
