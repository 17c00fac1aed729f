import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '#kernel';
import { DOCUMENT_STORE, type DocumentStore } from '#documents';
import { EVENT_STORE, type EventStore } from '#eventstore';
import { BackgroundOwnership, ProjectionRunner } from '#projections';

const PING_TIMEOUT_MS = 2000;

/**
 * The worker has no API: with SVC_WORKER_HEALTH_PORT set it answers `GET /health` on that port
 * (docker-compose's health check, an orchestrator's probe): 200 with this process's owner id, the
 * jobs it holds and stands by for, and the projections' status; 503 when a store does not answer.
 */
@Injectable()
export class WorkerHealthServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('WorkerHealth');
  private server: Server | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(DOCUMENT_STORE) private readonly documents: DocumentStore,
    private readonly ownership: BackgroundOwnership,
    private readonly runner: ProjectionRunner,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.workerHealthPort === undefined) return;
    const server = createServer((request, response) => {
      if (request.method !== 'GET' || request.url?.split('?')[0] !== '/health') {
        response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not_found"}');
        return;
      }
      void this.report().then(({ status, body }) =>
        response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body)),
      );
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.config.workerHealthPort, this.config.host, () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    this.logger.log(`worker health on http://${this.config.host}:${port}/health`);
  }

  async onApplicationShutdown(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = null;
  }

  private async report(): Promise<{ status: number; body: unknown }> {
    const stores = await Promise.allSettled([
      withTimeout(this.events.ping(), PING_TIMEOUT_MS),
      withTimeout(this.documents.ping(), PING_TIMEOUT_MS),
    ]);
    const down = stores.some((s) => s.status === 'rejected');
    const [jobs, projections] = await Promise.all([
      withTimeout(this.ownership.status(), PING_TIMEOUT_MS).catch(() => null),
      withTimeout(this.runner.status(), PING_TIMEOUT_MS).catch(() => null),
    ]);
    return {
      status: down ? 503 : 200,
      body: {
        status: down ? 'error' : 'ok',
        eventstore: stores[0]!.status === 'fulfilled' ? 'up' : 'down',
        documents: stores[1]!.status === 'fulfilled' ? 'up' : 'down',
        owner: this.ownership.owner,
        jobs,
        projections,
      },
    };
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
