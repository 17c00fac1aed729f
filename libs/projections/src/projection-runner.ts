import { DEAD_LETTERS_COLLECTION } from './projection-store.js';
import { SystemClock, type Clock } from '#kernel';
import type { DocumentStore } from '#documents';
import type { EventStore } from '#eventstore';
import {
  ProjectionTimeoutError,
  UnknownProjectionError,
  type ProjectionDefinition,
  type ProjectionStatus,
  type RebuildResult,
  type WaitForOptions,
} from './projection.port.js';
import { ProjectionStore } from './projection-store.js';
import { ProjectionWorker, type CommitInfo, type ProjectionLogger } from './projection-worker.js';
import type { BackgroundOwnership, OwnershipView } from './ownership/background-ownership.js';

export interface ProjectionRunnerOptions {
  eventStore: EventStore;
  documentStore: DocumentStore;
  /** More can be added with `register` before `start`. */
  projections?: ProjectionDefinition[];
  clock?: Clock;
  /** Default: silent. Pass Nest's Logger (or console) to see failures and rebuilds. */
  logger?: ProjectionLogger;
  /** Events per batch at most (a batch also ends when no more events are at hand). Default 500. */
  batchSize?: number;
  /** While idle: store skipped progress and notice a generation switched elsewhere. Default 1000 ms. */
  idleCheckMs?: number;
  /** Backoff after a failure (handler error, store down): from initialMs doubling to maxMs. */
  retry?: { initialMs?: number; maxMs?: number };
  /** See ProjectionStore. */
  generationCacheMs?: number;
  /** See ProjectionStore (default 10,000; 0 = no read cache). */
  readCacheDocuments?: number;
  /** Called after every committed batch (tests inject crashes here). */
  onCommit?: (info: CommitInfo) => void | Promise<void>;
  /**
   * When given, `start()` runs each projection only while this process holds its lease
   * (`projection:{name}`, ADR 0067); without, every projection runs here at once.
   */
  ownership?: BackgroundOwnership;
}

/** The ownership lease's name of a projection. */
export function projectionJob(name: string): string {
  return `projection:${name}`;
}

const NAME = /^[A-Za-z0-9_-]+$/;

/**
 * Runs projections over the event store into the document store (DESIGN §2): one worker per
 * projection with its own subscription and checkpoint, so a slow or failing projection holds up
 * no other. See ProjectionWorker for the commit protocol.
 *
 * `start()` returns at once (a projection whose version changed rebuilds in the background while
 * readers keep its previous generation); `stop()` lets each batch in progress commit;
 * `rebuild()` also works on a runner that was never started (the CLI), and a runner serving in
 * another process follows the switch.
 */
export class ProjectionRunner {
  readonly store: ProjectionStore;
  private readonly workers = new Map<string, ProjectionWorker>();
  private readonly options: ProjectionRunnerOptions;
  private started = false;
  private progressWaiters = new Set<() => void>();

  constructor(options: ProjectionRunnerOptions) {
    this.options = options;
    this.store = new ProjectionStore(options.documentStore, {
      generationCacheMs: options.generationCacheMs,
      readCacheDocuments: options.readCacheDocuments,
    });
    this.register(options.projections ?? []);
  }

  register(definitions: ProjectionDefinition[]): void {
    if (this.started) throw new Error('Register projections before start()');
    for (const definition of definitions) {
      validate(
        definition,
        [...this.workers.values()].map((w) => w.definition),
      );
      this.workers.set(definition.name, new ProjectionWorker(definition, this.settings()));
    }
  }

  get projections(): ProjectionDefinition[] {
    return [...this.workers.values()].map((w) => w.definition);
  }

  async start(): Promise<void> {
    this.started = true;
    const { ownership } = this.options;
    for (const worker of this.workers.values()) {
      if (!ownership) worker.start();
      else
        ownership.add({
          name: projectionJob(worker.definition.name),
          start: () => worker.start(),
          stop: () => worker.stop(),
        });
    }
    if (ownership) {
      ownership.start();
      // One full round before start() resolves: the projections free now run here from the start.
      await ownership.settle();
    }
  }

  /** Stops every worker (the batches in progress commit) and gives their leases back. */
  async stop(): Promise<void> {
    const { ownership } = this.options;
    if (ownership && this.started)
      await Promise.all([...this.workers.keys()].map((name) => ownership.remove(projectionJob(name))));
    await Promise.all([...this.workers.values()].map((w) => w.stop()));
    this.started = false;
  }

  /** Replays from position 0 into a fresh generation per projection, then switches readers to it. */
  async rebuild(name?: string): Promise<RebuildResult[]> {
    const workers = name === undefined ? [...this.workers.values()] : [this.worker(name)];
    const results: RebuildResult[] = [];
    for (const worker of workers) results.push(await worker.rebuild());
    return results;
  }

  /**
   * Resolves once the projections (default: all) have passed `position` — handled it, or
   * skipped it as an event they ignore. Projections this runner does not run (a CLI, or an API
   * whose projections run in the worker process) are followed through their stored checkpoints.
   */
  async waitFor(position: number, options: WaitForOptions = {}): Promise<void> {
    const names = options.projections ?? [...this.workers.keys()];
    for (const n of names) this.worker(n);
    const timeoutMs = options.timeoutMs ?? 5000;
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const behind: Array<{ name: string; position: number }> = [];
      let remote = false;
      for (const n of names) {
        if (!this.worker(n).isRunning) remote = true;
        const passed = await this.passed(n);
        if (passed < position) behind.push({ name: n, position: passed });
      }
      if (behind.length === 0) return;
      const remaining = deadline - performance.now();
      if (remaining <= 0) throw new ProjectionTimeoutError(position, behind, timeoutMs);
      await this.nextProgress(remote ? Math.min(remaining, 50) : remaining);
    }
  }

  /**
   * Waits until the projections have passed the event store's head as of this call (what
   * another process appended a moment ago included); false when they had already, so a caller
   * asks its read model again only when there was something to wait for.
   */
  async catchUpWithHead(options: WaitForOptions): Promise<boolean> {
    const head = await this.options.eventStore.headPosition();
    const names = options.projections ?? [...this.workers.keys()];
    let behind = false;
    for (const n of names) if ((await this.passed(n)) < head) behind = true;
    if (behind) await this.waitFor(head, options);
    return behind;
  }

  /** Where a projection stands: its worker's position here, else its stored checkpoint (another process runs it). */
  private async passed(name: string): Promise<number> {
    const worker = this.worker(name);
    return worker.isRunning ? worker.position : ((await this.store.active(name))?.position ?? 0);
  }

  async status(): Promise<ProjectionStatus[]> {
    const head = await this.options.eventStore.headPosition();
    const letters = await this.options.documentStore
      .collection(DEAD_LETTERS_COLLECTION)
      .find({}, { limit: 1000 })
      .then((page) => page.items as Array<{ projection?: string; generation?: number }>);
    const deadLetters = (name: string, generation: number) =>
      letters.filter((l) => l.projection === name && l.generation === generation).length;
    const owners = new Map<string, OwnershipView>();
    if (this.options.ownership && this.started)
      for (const view of await this.options.ownership.status()) owners.set(view.job, view);
    const owner = (name: string) => {
      const view = owners.get(projectionJob(name));
      return view ? { owner: ownerOf(view) } : {};
    };
    const out: ProjectionStatus[] = [];
    for (const worker of this.workers.values()) {
      const { definition } = worker;
      if (worker.isRunning && worker.generation > 0) {
        out.push({
          name: definition.name,
          version: worker.activeVersion,
          generation: worker.generation,
          position: worker.position,
          lag: worker.idle ? 0 : Math.max(0, head - worker.position),
          state: worker.state,
          last_error: worker.lastError,
          rebuilding: worker.rebuilding ? { ...worker.rebuilding } : null,
          dead_letters: deadLetters(definition.name, worker.generation),
          ...owner(definition.name),
        });
        continue;
      }
      const [active, rebuild] = await Promise.all([
        this.store.active(definition.name),
        this.store.rebuildState(definition.name),
      ]);
      const position = active?.position ?? 0;
      out.push({
        name: definition.name,
        version: active?.version ?? definition.version,
        generation: active?.generation ?? 0,
        position,
        lag: Math.max(0, head - position),
        state: worker.isRunning ? worker.state : 'stopped',
        last_error: worker.lastError,
        rebuilding:
          worker.rebuilding ??
          (rebuild?.state === 'running' ? { generation: rebuild.generation, position: rebuild.position } : null),
        dead_letters: deadLetters(definition.name, active?.generation ?? 0),
        ...owner(definition.name),
      });
    }
    return out;
  }

  private worker(name: string): ProjectionWorker {
    const worker = this.workers.get(name);
    if (!worker) throw new UnknownProjectionError(name);
    return worker;
  }

  private nextProgress(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.progressWaiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.progressWaiters.add(done);
    });
  }

  private settings() {
    const o = this.options;
    return {
      eventStore: o.eventStore,
      documents: o.documentStore,
      store: this.store,
      clock: o.clock ?? new SystemClock(),
      logger: o.logger ?? SILENT,
      batchSize: o.batchSize ?? 500,
      idleCheckMs: o.idleCheckMs ?? 1000,
      retryInitialMs: o.retry?.initialMs ?? 200,
      retryMaxMs: o.retry?.maxMs ?? 30_000,
      onCommit: o.onCommit,
      onProgress: () => {
        for (const wake of [...this.progressWaiters]) wake();
      },
      onSwitched: (projection: string) => {
        const worker = this.workers.get(projection);
        if (worker?.isRunning) worker.restart();
      },
    };
  }
}

function ownerOf(view: OwnershipView): ProjectionStatus['owner'] {
  return view.owner ? { id: view.owner, here: view.here, expires_at: view.expires_at!, term: view.term } : null;
}

const SILENT: ProjectionLogger = { log: () => undefined, warn: () => undefined, error: () => undefined };

function validate(definition: ProjectionDefinition, others: ProjectionDefinition[]): void {
  const { name } = definition;
  if (!NAME.test(name)) throw new Error(`Invalid projection name ${JSON.stringify(name)}`);
  if (others.some((o) => o.name === name)) throw new Error(`Projection ${name} is registered twice`);
  if (!Number.isInteger(definition.version) || definition.version < 1)
    throw new Error(`Projection ${name}: version must be a positive integer`);
  if (typeof definition.handle !== 'function') throw new Error(`Projection ${name} has no handle()`);
  const mine = new Set<string>();
  for (const c of definition.collections) {
    if (!/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(c.name) || c.name.includes('__g')) {
      throw new Error(`Projection ${name}: invalid collection name ${JSON.stringify(c.name)}`);
    }
    if (mine.has(c.name)) throw new Error(`Projection ${name} declares ${c.name} twice`);
    mine.add(c.name);
    const owner = others.find((o) => o.collections.some((oc) => oc.name === c.name));
    if (owner) throw new Error(`Collection ${c.name} belongs to both ${owner.name} and ${name}`);
  }
}
