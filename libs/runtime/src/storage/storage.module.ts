import {
  type DynamicModule,
  Global,
  Inject,
  Injectable,
  Logger,
  Module,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type OnModuleInit,
  type Provider,
} from '@nestjs/common';
import {
  APP_CONFIG,
  type AppConfig,
  CLOCK,
  type Clock,
  ID_GENERATOR,
  IdGenerator,
  loadSecretBox,
  SECRET_BOX,
  SystemClock,
} from '#kernel';
import {
  BACKGROUND_WORK,
  BackgroundOwnership,
  DocumentOwnershipLeases,
  OWNERSHIP_LEASES,
  type OwnershipLeases,
  processOfThisHostIsGone,
  ProjectionRegistry,
  ProjectionRegistryModule,
} from '#projections';
import { RATE_LIMIT_STORE, type RateLimitStore } from '#access';
import { DOCUMENT_STORE } from '#documents';
import { DELIVERY_LEASES, type DeliveryLeases } from '#webhooks';
import { EVENT_STORE } from '#eventstore';
import { type CommitInfo, ProjectionRunner, ProjectionStore } from '#projections';
import { openStores, type Stores } from './open-stores.js';
import { deliveryLeasesFor, rateLimitStoreFor } from './shared-state.js';

export interface StorageModuleOptions {
  /** Start the projection runner when the app boots (api: config.runProjections; worker: always). */
  runProjections: boolean;
  /** Replaces SystemClock (tests). */
  clock?: Clock;
  /** Told after every committed projection batch (the CLI prints rebuild progress with it). */
  onCommit?: (info: CommitInfo) => void;
}

const STORES = Symbol('STORES');
const STORAGE_OPTIONS = Symbol('STORAGE_OPTIONS');

/**
 * Owns the stores and the projection runner of one process: builds the runner over every
 * registered projection once all modules are created, starts it if asked, and on shutdown
 * (after the HTTP server has drained) stops it and closes the stores, in that order.
 */
@Injectable()
export class StorageLifecycle implements OnModuleInit, OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Storage');
  private closed = false;

  constructor(
    @Inject(STORES) private readonly stores: Stores,
    @Inject(STORAGE_OPTIONS) private readonly options: StorageModuleOptions,
    private readonly registry: ProjectionRegistry,
    private readonly runner: ProjectionRunner,
    @Inject(RATE_LIMIT_STORE) private readonly rateLimits: RateLimitStore,
    private readonly ownership: BackgroundOwnership,
    @Inject(DELIVERY_LEASES) private readonly deliveryLeases: DeliveryLeases,
  ) {}

  onModuleInit(): void {
    this.runner.register(this.registry.all());
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.options.runProjections) {
      await this.runner.start();
      this.logger.log(
        `projections running: ${
          this.registry
            .all()
            .map((p) => p.name)
            .join(', ') || '(none registered)'
        }`,
      );
    }
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      // The runner gives its leases back; then any other job's (the dispatchers stopped before).
      await this.runner.stop();
      await this.ownership.stop();
    } finally {
      await Promise.allSettled([
        this.rateLimits.close(),
        this.deliveryLeases.close?.(),
        this.stores.documents.close(),
        this.stores.events.close(),
      ]);
      this.logger.log('projections stopped, stores closed');
    }
  }
}

/**
 * The storage bindings every app shares (DESIGN §2): EVENT_STORE, DOCUMENT_STORE, the
 * ProjectionRunner (waitFor for read-your-writes), ProjectionStore (reading projection
 * collections), CLOCK, ID_GENERATOR, APP_CONFIG, and the shared state chosen with the stores
 * (RATE_LIMIT_STORE, DELIVERY_LEASES: see shared-state.ts), and the ownership of background jobs
 * (BackgroundOwnership over OWNERSHIP_LEASES, ADR 0067). Global, imported once per app.
 */
@Global()
@Module({})
export class StorageModule {
  static forRoot(config: AppConfig, options: StorageModuleOptions): DynamicModule {
    const providers: Provider[] = [
      { provide: APP_CONFIG, useValue: config },
      { provide: STORAGE_OPTIONS, useValue: options },
      // Background work (webhook dispatchers) runs where the projections run.
      { provide: BACKGROUND_WORK, useValue: { run: options.runProjections } },
      { provide: CLOCK, useValue: options.clock ?? new SystemClock() },
      { provide: ID_GENERATOR, useFactory: (clock: Clock) => new IdGenerator(clock), inject: [CLOCK] },
      { provide: STORES, useFactory: () => openStores(config) },
      { provide: EVENT_STORE, useFactory: (s: Stores) => s.events, inject: [STORES] },
      { provide: DOCUMENT_STORE, useFactory: (s: Stores) => s.documents, inject: [STORES] },
      // Who runs each background job among the processes sharing the stores (ADR 0067).
      {
        provide: OWNERSHIP_LEASES,
        useFactory: (s: Stores) => new DocumentOwnershipLeases(s.documents),
        inject: [STORES],
      },
      {
        provide: BackgroundOwnership,
        useFactory: (s: Stores, leases: OwnershipLeases) =>
          new BackgroundOwnership(leases, {
            settings: config.ownership,
            logger: new Logger('Ownership'),
            // Embedded: every process of the data file runs on this host, so a SIGKILLed owner's
            // jobs are taken at once instead of after the lease time.
            ...(s.mongo ? {} : { ownerIsGone: processOfThisHostIsGone }),
          }),
        inject: [STORES, OWNERSHIP_LEASES],
      },
      {
        provide: ProjectionRunner,
        useFactory: (s: Stores, clock: Clock, ownership: BackgroundOwnership) =>
          new ProjectionRunner({
            eventStore: s.events,
            documentStore: s.documents,
            clock,
            logger: new Logger('Projections'),
            readCacheDocuments: config.readCacheDocuments,
            ...(options.onCommit ? { onCommit: options.onCommit } : {}),
            ...(options.runProjections ? { ownership } : {}),
          }),
        inject: [STORES, CLOCK, BackgroundOwnership],
      },
      // Readers of projection collections (the active generation).
      { provide: ProjectionStore, useFactory: (runner: ProjectionRunner) => runner.store, inject: [ProjectionRunner] },
      // The secrets key, read (or made) once per process: webhook secrets and idempotency replays use it.
      { provide: SECRET_BOX, useFactory: () => loadSecretBox(config) },
      { provide: RATE_LIMIT_STORE, useFactory: (s: Stores) => rateLimitStoreFor(s, config), inject: [STORES] },
      { provide: DELIVERY_LEASES, useFactory: (s: Stores) => deliveryLeasesFor(s, config), inject: [STORES] },
      StorageLifecycle,
    ];
    return {
      module: StorageModule,
      imports: [ProjectionRegistryModule],
      providers,
      exports: [
        SECRET_BOX,
        RATE_LIMIT_STORE,
        DELIVERY_LEASES,
        OWNERSHIP_LEASES,
        BackgroundOwnership,
        APP_CONFIG,
        BACKGROUND_WORK,
        CLOCK,
        ID_GENERATOR,
        EVENT_STORE,
        DOCUMENT_STORE,
        ProjectionRunner,
        ProjectionStore,
        ProjectionRegistryModule,
      ],
    };
  }
}
