import { type Clock, SecretBoxError } from '#kernel';
import { decideAndAppend, type EventStore, WrongExpectedRevisionError } from '#eventstore';
import type { ProjectionRunner, ProjectionStore, ReadonlyCollection } from '#projections';
import { channelNames, type ChannelNames, type WebhookChannel } from '../engine/channel.js';
import { type AttemptOutcome, deliveryDecider, type DeliveryRef, type DeliveryState } from '../engine/delivery.decider.js';
import { type DeliveryAttemptData, deliveryStream } from '../engine/delivery.events.js';
import type { WebhookSecrets } from '../engine/secrets.store.js';
import { DELIVERY_HEADER, EVENT_HEADER, SIGNATURE_HEADER, signWebhookBody } from '../engine/signing.js';
import { webhookDecider } from '../engine/webhook.decider.js';
import { webhookStream } from '../engine/webhook.events.js';
import type { DeliveryDoc, PayloadDoc, WebhookDoc } from '../engine/webhooks.projection.js';
import type { WebhookSender } from '../sending/webhook-sender.js';
import type { AttemptContext, DeliveryHooks } from './delivery-hooks.js';
import type { DeliveryLeases } from './leases.js';

export interface DispatcherSettings {
  /** Requests in flight at most (SVC_WEBHOOK_CONCURRENCY). */
  concurrency: number;
  /** Requests in flight per target host at most (SVC_WEBHOOK_CONCURRENCY_PER_HOST). */
  perHost: number;
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
}

export const DEFAULT_DISPATCHER_SETTINGS: DispatcherSettings = {
  concurrency: 256,
  perHost: 16,
  pollMs: 1000,
  leaseMs: 60_000,
  pageSize: 500,
  scanLimit: 5000,
  maxQueued: 512,
  maxQueuedPerHost: 256,
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
/** How long a webhook document read for a send is trusted at most (real ms); changes also drop it. */
const WEBHOOK_CACHE_MS = 2000;
/** How long this dispatcher treats a webhook it just disabled as disabled, whatever the read model says yet. */
const LOCAL_DISABLE_MS = 5000;
const RECONCILE_EVERY_MS = 30_000;
/**
 * A webhook whose signing secret cannot be read (missing, or sealed with a key this process
 * lacks) holds its deliveries this long before one of them tries again: one log line per webhook
 * per period instead of one per delivery per poll.
 */
export const SECRET_RETRY_MS = 30_000;
/** How often, at most, the other targets are asked for while busy hosts fill the queue. */
const OTHERS_EVERY_MS = 100;
/** Attempt records are appended in groups of at most this many, or after this wait. */
const RECORD_BATCH = 128;
const RECORD_WINDOW_MS = 5;

interface Task {
  doc: DeliveryDoc;
  releaseHost?: () => void;
}

/**
 * Sends a channel's due deliveries (DESIGN §2 "Fan-out", D12–D14).
 *
 * What is due comes from the channel's read model (`dispatch_at <= now`, by the injected clock),
 * so pending retries survive restarts and fire on time after one. Due deliveries wait in memory
 * in one queue per target host and are started round-robin over hosts, at most `perHost` per
 * host and `concurrency` in all: a slow receiver holds its own slots only. Before each send:
 * - a lease on that very attempt (DeliveryLeases: in memory embedded, a document when several
 *   dispatchers share MongoDB), so two dispatchers never send one attempt;
 * - the delivery stream's revision must equal the one the document reflects, so a read model
 *   that is behind (lag, a rebuild in progress) never causes a resend.
 * After each send the attempt is appended to `webhookdelivery-{id}` (status, duration, error,
 * first 1 KiB of the answer, next attempt time); a final failure appends WebhookDisabled.
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
  private readonly payloads: ReadonlyCollection<PayloadDoc>;

  private readonly hostQueues = new Map<string, DeliveryDoc[]>();
  private readonly queued = new Set<string>();
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly hostInFlight = new Map<string, number>();
  /** Deliveries this dispatcher recorded an event for → that revision, until the read model shows it. */
  private readonly recorded = new Map<string, { revision: number; at: number }>();
  private readonly disabledLocally = new Map<string, { at: number; clockMs: number }>();
  /** Secret ids that could not be read → when (real ms); their deliveries wait (SECRET_RETRY_MS). */
  private readonly secretTrouble = new Map<string, number>();
  private readonly webhookCache = new Map<string, { doc: WebhookDoc | null; at: number }>();
  private readonly bodyCache = new Map<string, Buffer | null>();
  private readonly pendingAppends: Array<() => void> = [];
  private appendTimer: NodeJS.Timeout | null = null;

  private loopPromise: Promise<void> | null = null;
  private subscription: { close(): Promise<void> } | null = null;
  private stopping = false;
  /** New work may be due (an event arrived): read the model again when the queue has room. */
  private dirty = true;
  /** The last refill stopped at the queue's size: more may be due behind it. */
  private more = false;
  private wakeUp: (() => void) | null = null;
  private lastReconcile = -Infinity;
  private lastSweep = performance.now();
  private lastOthers = -Infinity;
  /** Targets of the active webhooks (for the per-target refill), refreshed every few seconds. */
  private knownTargets: { targets: string[]; at: number } | null = null;
  /** Where the sweep over due deliveries goes on (keyset cursor), or from the start. */
  private sweepAfter: string | undefined;
  /** A webhook changed: drop cached webhook documents once the read model has the change. */
  private webhooksChanged = false;
  /** Highest position this dispatcher appended or was told about: the read model must reach it. */
  private wantPosition = 0;
  private readonly stats = { attempts: 0, succeeded: 0, failed: 0, refills: 0, scanned: 0 };

  constructor(
    readonly channel: WebhookChannel,
    private readonly deps: WebhookDispatcherDeps,
  ) {
    this.names = channelNames(channel);
    const settings = { ...DEFAULT_DISPATCHER_SETTINGS, ...deps.settings };
    // The queue holds about two rounds of sends; one host at most half of it (room for others).
    if (deps.settings?.maxQueued === undefined) settings.maxQueued = Math.max(64, 2 * settings.concurrency);
    if (deps.settings?.maxQueuedPerHost === undefined) settings.maxQueuedPerHost = Math.max(8, Math.floor(settings.maxQueued / 2));
    this.settings = settings;
    this.logger = deps.logger ?? SILENT;
    this.deliveries = deps.projections.collection<DeliveryDoc>(this.names.projection, this.names.deliveries);
    this.webhooks = deps.projections.collection<WebhookDoc>(this.names.projection, this.names.webhooks);
    this.payloads = deps.projections.collection<PayloadDoc>(this.names.projection, this.names.payloads);
  }

  get running(): boolean {
    return this.loopPromise !== null;
  }

  getStats(): DispatcherStats {
    return { ...this.stats, inFlight: this.inFlight.size, queued: this.queued.size };
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
    this.hostQueues.clear();
    this.queued.clear();
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
      if (performance.now() > deadline) throw new Error(`webhook dispatcher ${this.channel.name}: drain did not settle within ${timeoutMs} ms`);
      const head = await this.deps.events.headPosition();
      await this.catchUp(head, Math.max(1, deadline - performance.now()));
      const before = this.stats.attempts;
      this.webhooksChanged = true;
      await this.reconcileDisables();
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
        // Look at the read model when something may have become due (new work, more left behind
        // last time, or the timer) and the queue runs low; when it is full of deliveries for
        // busy hosts only, ask for the other targets' (now and then) instead.
        let added = 0;
        const wanted = this.dirty || this.more || timedOut;
        if (wanted && this.queued.size <= this.lowWater()) {
          this.dirty = false;
          await this.catchUp(this.wantPosition, 5000).catch(() => undefined);
          added = await this.refill(timedOut);
        } else if (wanted && this.othersDue()) {
          this.lastOthers = performance.now();
          await this.catchUp(this.wantPosition, 5000).catch(() => undefined);
          added = await this.refillOtherTargets(this.deps.clock.now().toISOString());
        }
        this.pump();
        // Read again at once only after a refill that found work; otherwise wait for a send to
        // finish or new work to arrive (both wake the loop), or for the next due time.
        if (added > 0 && this.queued.size <= this.lowWater() && (this.dirty || this.more)) delay = 0;
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
          if (event.type.startsWith('Webhook') && event.type !== 'WebhookTestRequested' && event.type !== 'WebhookRedeliveryRequested') this.webhooksChanged = true;
          this.dirty = true;
          this.wake();
        }
      } catch (error) {
        if (!this.stopping) this.logger.warn(`dispatcher ${this.channel.name}: subscription ended: ${message(error)}; polling every ${this.settings.pollMs} ms`);
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
    const next = await this.deliveries.find({ dispatch_at: { $gt: now.toISOString() } }, { sort: [['dispatch_at', 1]], limit: 1 });
    const at = next.items[0]?.dispatch_at;
    if (!at) return this.settings.pollMs;
    return Math.min(this.settings.pollMs, Math.max(0, Date.parse(at) - now.getTime()));
  }

  private async catchUp(position: number, timeoutMs: number): Promise<void> {
    if (position <= 0) return;
    await this.deps.runner.waitFor(position, { projections: [this.names.projection], timeoutMs });
  }

  // ---- queues ----------------------------------------------------------------------------

  private runnable(): number {
    let n = 0;
    for (const [host, queue] of this.hostQueues) if ((this.hostInFlight.get(host) ?? 0) < this.settings.perHost) n += queue.length;
    return n;
  }

  /** Reads due deliveries into the per-host queues. Returns how many were added. */
  private async refill(fromStart = false): Promise<number> {
    if (this.stopping) return 0;
    const now = this.deps.clock.now().toISOString();
    this.prune();
    // A webhook changed since (url, secret, status): re-read them now that the model caught up.
    if (this.webhooksChanged) {
      this.webhooksChanged = false;
      this.webhookCache.clear();
    }
    this.stats.refills++;
    let added = 0;
    let scanned = 0;
    let hostsFull = false;
    let busy = false;
    // Continue the sweep where the last refill stopped (what it passed is queued, in flight or
    // recorded); a sweep that reached the end starts over next time, so deliveries that became
    // due behind it (retries) are found within one sweep.
    let after = fromStart ? undefined : this.sweepAfter;
    this.sweepAfter = undefined;
    this.more = false;
    while (this.queued.size < this.settings.maxQueued && scanned < this.settings.scanLimit) {
      const page = await this.deliveries.find(
        { dispatch_at: { $lte: now } },
        { sort: [['dispatch_at', 1]], limit: this.settings.pageSize, ...(after ? { after } : {}) },
      );
      scanned += page.items.length;
      this.stats.scanned += page.items.length;
      let fullStreak = 0;
      for (const doc of page.items) {
        const r = this.enqueue(doc);
        if (r === 'added') added++;
        else if (r === 'host_full') hostsFull = true;
        // Due but in flight (or recorded and not yet projected): look again when sends finish.
        else busy = true;
        fullStreak = r === 'host_full' ? fullStreak + 1 : 0;
      }
      if (!page.nextCursor) {
        // Due deliveries were left out if a host's queue was full or they were still busy.
        this.more = hostsFull || busy;
        return added;
      }
      after = page.nextCursor;
      if (!hostsFull) this.sweepAfter = after;
      // A page ending in deliveries for hosts whose queue is full (a fan-out burst to one host, a
      // backed-up receiver): ask per target instead of scanning on through them.
      if (fullStreak > 0) break;
    }
    this.more = true;
    // The scan stopped on a backlog of hosts whose queues are full (a slow receiver): ask for
    // the other known targets directly so their deliveries are not stuck behind it.
    if (hostsFull && this.queued.size < this.settings.maxQueued) added += await this.refillOtherTargets(now);
    return added;
  }

  private async refillOtherTargets(now: string): Promise<number> {
    const t = performance.now();
    if (!this.knownTargets || t - this.knownTargets.at > 5000) {
      const all = new Set<string>();
      let after: string | undefined;
      do {
        const page = await this.webhooks.find({ status: 'active' }, { limit: 1000, ...(after ? { after } : {}) });
        for (const w of page.items) all.add(w.target);
        after = page.nextCursor ?? undefined;
      } while (after);
      this.knownTargets = { targets: [...all], at: t };
    }
    let added = 0;
    // Targets with little queued work: the busy ones have enough to do.
    const list = this.knownTargets.targets.filter((target) => (this.hostQueues.get(target)?.length ?? 0) < this.settings.perHost);
    for (let i = 0; i < list.length && this.queued.size < this.settings.maxQueued; i += 50) {
      const page = await this.deliveries.find(
        { target: { $in: list.slice(i, i + 50) }, dispatch_at: { $lte: now } },
        { sort: [['dispatch_at', 1]], limit: this.settings.pageSize },
      );
      for (const doc of page.items) if (this.enqueue(doc) === 'added') added++;
    }
    return added;
  }

  private enqueue(doc: DeliveryDoc): 'added' | 'known' | 'stale' | 'host_full' {
    if (this.inFlight.has(doc.id) || this.queued.has(doc.id)) return 'known';
    const mine = this.recorded.get(doc.id);
    if (mine) {
      if (doc.revision < mine.revision) return 'stale';
      this.recorded.delete(doc.id);
    }
    let queue = this.hostQueues.get(doc.target);
    if (!queue) this.hostQueues.set(doc.target, (queue = []));
    if (queue.length >= this.settings.maxQueuedPerHost) return 'host_full';
    queue.push(doc);
    this.queued.add(doc.id);
    return 'added';
  }

  /** Starts queued deliveries, one per host in turn, within the global and per-host limits. */
  private pump(): void {
    if (this.stopping) return;
    let progressed = true;
    while (progressed && this.inFlight.size < this.settings.concurrency) {
      progressed = false;
      for (const host of [...this.hostQueues.keys()]) {
        const queue = this.hostQueues.get(host)!;
        if (queue.length === 0) {
          this.hostQueues.delete(host);
          continue;
        }
        if ((this.hostInFlight.get(host) ?? 0) >= this.settings.perHost) continue;
        const doc = queue.shift()!;
        this.queued.delete(doc.id);
        this.launch(host, { doc });
        progressed = true;
        if (this.inFlight.size >= this.settings.concurrency) break;
      }
    }
  }

  private launch(host: string, task: Task): void {
    this.hostInFlight.set(host, (this.hostInFlight.get(host) ?? 0) + 1);
    let held = true;
    // The host's slot is for the HTTP exchange only: recording the attempt does not hold it.
    const releaseHost = () => {
      if (!held) return;
      held = false;
      const left = (this.hostInFlight.get(host) ?? 1) - 1;
      if (left <= 0) this.hostInFlight.delete(host);
      else this.hostInFlight.set(host, left);
      this.pump();
    };
    const run = this.run({ ...task, releaseHost })
      .catch((error: unknown) => {
        this.logger.error(`dispatcher ${this.channel.name}: delivery ${task.doc.id}: ${message(error)}`);
      })
      .finally(() => {
        this.inFlight.delete(task.doc.id);
        releaseHost();
        this.pump();
        if ((this.dirty || this.more) && (this.queued.size <= this.lowWater() || this.othersDue())) this.wake();
      });
    this.inFlight.set(task.doc.id, run);
  }

  private prune(): void {
    const t = performance.now();
    for (const [id, r] of this.recorded) if (t - r.at > 60_000) this.recorded.delete(id);
    for (const [id, d] of this.disabledLocally) if (t - d.at > LOCAL_DISABLE_MS) this.disabledLocally.delete(id);
    for (const [id, at] of this.secretTrouble) if (t - at > SECRET_RETRY_MS) this.secretTrouble.delete(id);
    if (this.webhookCache.size > 10_000) this.webhookCache.clear();
    if (this.bodyCache.size > 2000) this.bodyCache.clear();
    if (t - this.lastSweep > 60_000) {
      this.lastSweep = t;
      void this.deps.leases.sweep().catch(() => undefined);
    }
  }

  // ---- one attempt -----------------------------------------------------------------------

  private async run({ doc, releaseHost }: Task): Promise<void> {
    if (this.stopping) return;
    const webhook = await this.webhook(doc.webhook_id);
    if (!webhook || webhook.status === 'deleted') return;
    const manual = doc.manual_request_id !== null;
    const now = this.deps.clock.now();
    if (!manual) {
      // Automatic attempts stop when the webhook is disabled (D12); redeliveries asked for still go.
      if (doc.state !== 'pending' || webhook.status !== 'active' || this.disabledHere(webhook)) return;
      if (doc.next_attempt_at === null || Date.parse(doc.next_attempt_at) > now.getTime()) return;
    }
    // Its secret could not be read a moment ago: the delivery waits, untouched (not an attempt).
    const troubleAt = this.secretTrouble.get(webhook.secret_id);
    if (troubleAt !== undefined && performance.now() - troubleAt < SECRET_RETRY_MS) return;
    const attemptKey = manual ? `${doc.id}:m${doc.manual_request_id}` : `${doc.id}:a${doc.automatic_attempts + 1}`;
    if (!(await this.deps.leases.claim(attemptKey, this.settings.leaseMs))) return;
    let sent = false;
    try {
      const stream = deliveryStream(doc.id);
      const revision = (await this.deps.events.streamRevision(stream)) ?? -1;
      if (revision !== doc.revision) {
        // The read model is behind this delivery's stream: decide again once it caught up.
        this.recorded.set(doc.id, { revision, at: performance.now() });
        return;
      }
      const [body, secret] = await Promise.all([this.body(doc.event_id), this.secret(webhook)]);
      if (!body || !secret) {
        if (!body) this.logger.warn(`dispatcher ${this.channel.name}: delivery ${doc.id} skipped: payload missing`);
        return;
      }
      const context: AttemptContext = {
        channel: this.channel.name,
        owner: { kind: this.channel.ownerKind, id: doc.owner_id },
        webhookId: doc.webhook_id,
        deliveryId: doc.id,
        eventId: doc.event_id,
        eventType: doc.event_type,
        kind: manual ? 'manual' : 'automatic',
        attemptKey,
      };
      const decision = (await this.deps.hooks?.beforeSend?.(context)) ?? { send: true as const };
      const startedAt = this.deps.clock.now();
      sent = true;
      const outcome: AttemptOutcome = decision.send
        ? await this.deps.sender.send({
            url: webhook.url,
            body,
            headers: { [SIGNATURE_HEADER]: signWebhookBody(secret, body), [EVENT_HEADER]: doc.event_type, [DELIVERY_HEADER]: doc.id },
          })
        : { statusCode: null, durationMs: 0, error: decision.error, responseBody: null, succeeded: false };
      const completedAt = this.deps.clock.now();
      releaseHost?.();
      await this.deps.hooks?.afterAttempt?.(context, outcome).catch((error: unknown) => {
        this.logger.warn(`dispatcher ${this.channel.name}: afterAttempt hook failed for ${doc.id}: ${message(error)}`);
      });
      // Once sent, the lease is kept: if recording fails, nobody resends before it expires.
      const attempted = await this.record(doc, revision, { manual, startedAt, completedAt, outcome });
      this.stats.attempts++;
      if (outcome.succeeded) this.stats.succeeded++;
      else this.stats.failed++;
      if (attempted.final) {
        await this.disable({
          webhookId: attempted.webhook_id,
          deliveryId: attempted.delivery_id,
          reason: attempted.final === 'gone' ? 'gone' : 'delivery_failed',
          statusCode: attempted.status_code,
          startedAt: attempted.started_at,
        });
      }
    } finally {
      if (!sent) await this.deps.leases.release(attemptKey).catch(() => undefined);
    }
  }

  private async record(
    doc: DeliveryDoc,
    revision: number,
    attempt: { manual: boolean; startedAt: Date; completedAt: Date; outcome: AttemptOutcome },
  ): Promise<DeliveryAttemptData> {
    const delivery: DeliveryRef = { deliveryId: doc.id, webhookId: doc.webhook_id, channel: this.channel.name, eventId: doc.event_id, eventType: doc.event_type };
    const command = {
      type: 'RecordAttempt' as const,
      delivery,
      kind: attempt.manual ? ('manual' as const) : ('automatic' as const),
      requestId: doc.manual_request_id,
      startedAt: attempt.startedAt,
      completedAt: attempt.completedAt,
      outcome: attempt.outcome,
    };
    const state: DeliveryState = {
      attempts: doc.attempt_count,
      automaticAttempts: doc.automatic_attempts,
      succeeded: doc.state === 'succeeded',
      final: null,
      pendingRequest: doc.manual_request_id,
    };
    const stream = deliveryStream(doc.id);
    const events = deliveryDecider.decide(command, state);
    try {
      const result = await this.coalesced(() => this.deps.events.append(stream, events, revision === -1 ? 'no_stream' : revision));
      this.noteAppended(doc.id, result.nextExpectedRevision, result.position);
      return events[0]!.data as DeliveryAttemptData;
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
      // Something was appended meanwhile (a redelivery request): the attempt happened, record it
      // on top of the stream as it is now.
      const result = await decideAndAppend(this.deps.events, stream, deliveryDecider, command, { retries: 10 });
      this.noteAppended(doc.id, result.revision ?? revision, result.position ?? 0);
      return result.events[0]!.data as DeliveryAttemptData;
    }
  }

  /**
   * Starts appends together: records of attempts that finish within a few ms of each other are
   * issued in the same tick, so the store commits them in one group (one fsync on SQLite) and the
   * projection reads them as one batch, instead of one commit per answer.
   */
  private coalesced<T>(append: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pendingAppends.push(() => append().then(resolve, reject));
      if (this.pendingAppends.length >= RECORD_BATCH) this.flushAppends();
      else this.appendTimer ??= setTimeout(() => this.flushAppends(), RECORD_WINDOW_MS);
    });
  }

  private flushAppends(): void {
    if (this.appendTimer) clearTimeout(this.appendTimer);
    this.appendTimer = null;
    for (const start of this.pendingAppends.splice(0)) start();
  }

  private noteAppended(deliveryId: string, revision: number, position: number): void {
    this.recorded.set(deliveryId, { revision, at: performance.now() });
    if (position > this.wantPosition) this.wantPosition = position;
  }

  /** D12: the fifth automatic failure of a delivery, or a 410, disables its webhook. */
  private async disable(request: { webhookId: string; deliveryId: string; reason: 'delivery_failed' | 'gone'; statusCode: number | null; startedAt: string }): Promise<void> {
    this.disabledLocally.set(request.webhookId, { at: performance.now(), clockMs: this.deps.clock.now().getTime() });
    const result = await decideAndAppend(this.deps.events, webhookStream(request.webhookId), webhookDecider, {
      type: 'DisableWebhook',
      reason: request.reason,
      deliveryId: request.deliveryId,
      statusCode: request.statusCode,
      attemptStartedAt: new Date(request.startedAt),
      now: this.deps.clock.now(),
    });
    if (result.position !== null) {
      if (result.position > this.wantPosition) this.wantPosition = result.position;
      this.logger.warn(`webhook ${request.webhookId} disabled: delivery ${request.deliveryId} ${request.reason === 'gone' ? 'got 410 Gone' : 'failed 5 times'}`);
    }
  }

  /** Final failures whose WebhookDisabled is not in the log yet (a crash in between): append it now. */
  private async reconcileDisables(): Promise<void> {
    this.lastReconcile = performance.now();
    const pending = await this.webhooks.find({ disable_requested_at: { $gt: '' } }, { limit: 100 });
    for (const w of pending.items) {
      const r = w.disable_request;
      if (!r) continue;
      await this.disable({ webhookId: w.id, deliveryId: r.delivery_id, reason: r.reason, statusCode: r.status_code, startedAt: r.attempt_started_at }).catch(
        (error: unknown) => this.logger.warn(`dispatcher ${this.channel.name}: disabling ${w.id}: ${message(error)}`),
      );
    }
  }

  /**
   * The webhook's signing secret, or null when it cannot be read (logged once; its deliveries
   * then wait SECRET_RETRY_MS). They stay pending, so fixing the key lets them go out.
   */
  private async secret(webhook: WebhookDoc): Promise<string | null> {
    let secret: string | null;
    let reason = 'missing';
    try {
      secret = await this.deps.secrets.get(webhook.secret_id);
    } catch (error) {
      if (!(error instanceof SecretBoxError)) throw error;
      secret = null;
      reason = error.message;
    }
    if (secret !== null) {
      this.secretTrouble.delete(webhook.secret_id);
      return secret;
    }
    const since = this.secretTrouble.get(webhook.secret_id);
    if (since === undefined || performance.now() - since >= SECRET_RETRY_MS) {
      this.logger.error(
        `dispatcher ${this.channel.name}: webhook ${webhook.id}: its signing secret cannot be read (${reason}); its deliveries wait, trying again every ${SECRET_RETRY_MS / 1000} s`,
      );
    }
    this.secretTrouble.set(webhook.secret_id, performance.now());
    return null;
  }

  /** Disabled by this dispatcher and the read model does not show it yet (nor a re-enabling since). */
  private disabledHere(webhook: WebhookDoc): boolean {
    const local = this.disabledLocally.get(webhook.id);
    if (!local) return false;
    if (webhook.re_enabled_at !== null && Date.parse(webhook.re_enabled_at) >= local.clockMs) {
      this.disabledLocally.delete(webhook.id);
      return false;
    }
    return true;
  }

  private async webhook(id: string): Promise<WebhookDoc | null> {
    const cached = this.webhookCache.get(id);
    const t = performance.now();
    if (cached && t - cached.at < WEBHOOK_CACHE_MS) return cached.doc;
    const doc = await this.webhooks.get(id);
    this.webhookCache.set(id, { doc, at: t });
    return doc;
  }

  /** The envelope's bytes, serialised once per event: what is signed is exactly what is sent. */
  private async body(eventId: string): Promise<Buffer | null> {
    const cached = this.bodyCache.get(eventId);
    if (cached) return cached;
    const payload = await this.payloads.get(eventId);
    const body = payload ? Buffer.from(JSON.stringify(payload.envelope)) : null;
    if (body) this.bodyCache.set(eventId, body);
    return body;
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
