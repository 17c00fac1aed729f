import { Controller, Get, Inject, Res, ServiceUnavailableException } from '@nestjs/common';
import { HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import { z } from 'zod';
import { Operation } from '#http';
import { DOCUMENT_STORE, type DocumentStore } from '#documents';
import { EVENT_STORE, type EventStore } from '#eventstore';
import { OWNERSHIP_LEASES, type OwnershipLeases, ProjectionRunner } from '#projections';

const indicator = z.looseObject({ status: z.enum(['up', 'down', 'degraded']) });
const healthBody = z
  .object({
    status: z.enum(['ok', 'error', 'degraded', 'shutting_down']),
    info: z.record(z.string(), indicator).optional(),
    error: z.record(z.string(), indicator).optional(),
    details: z.record(z.string(), indicator),
  })
  .meta({
    id: 'Health',
    description:
      'Terminus health report: eventstore, documents, projections (with lag) and ownership (which process runs each background job).',
  });

const PING_TIMEOUT_MS = 2000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

interface Reply {
  code(status: number): Reply;
}

/** GET /health: each store's status and the projection lag; 503 when a store is unreachable. Public. */
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(DOCUMENT_STORE) private readonly documents: DocumentStore,
    private readonly projections: ProjectionRunner,
    @Inject(OWNERSHIP_LEASES) private readonly leases: OwnershipLeases,
  ) {}

  /** Who runs each background job (ADR 0067): the lease holder, or null when the job is free. */
  private async ownershipIndicator() {
    const session = this.indicators.check('ownership');
    try {
      const now = Date.now();
      const leases = await withTimeout(this.leases.list(), PING_TIMEOUT_MS);
      return session.up({
        jobs: leases.map((l) => ({
          job: l.job,
          owner: l.expiresAt > now ? l.owner : null,
          expires_at: l.expiresAt > now ? new Date(l.expiresAt).toISOString() : null,
          term: l.term,
        })),
      });
    } catch {
      return session.down({ message: 'ownership leases unavailable' });
    }
  }

  /** Up with the lag; degraded (still 200) when a projection is failing; down when unreadable. */
  private async projectionsIndicator() {
    const session = this.indicators.check('projections');
    try {
      const status = await withTimeout(this.projections.status(), PING_TIMEOUT_MS);
      // The lag of the slowest projection, in events of $all.
      const lag = status.reduce((max, p) => Math.max(max, p.lag), 0);
      const failed = status.filter((p) => p.state === 'failed').map((p) => p.name);
      // Events set aside (dead letters): the projection goes on, an operator should look.
      const deadLetters = status.reduce((n, p) => n + p.dead_letters, 0);
      return failed.length
        ? session.degraded({ lag, failed, dead_letters: deadLetters, projections: status })
        : session.up({ lag, dead_letters: deadLetters, projections: status });
    } catch {
      return session.down({ message: 'projection status unavailable' });
    }
  }

  @Get()
  @Operation({
    summary: 'Service health',
    description:
      'Each store (event store, documents), the projections with their lag, and which process holds each background job. 200 when all are up, 503 when one is down or the process is shutting down. Public, no key.',
    tags: ['health'],
    responses: {
      200: { description: 'Every store is up.', schema: healthBody },
      503: { description: 'A store is unreachable.', schema: healthBody },
    },
  })
  async check(@Res({ passthrough: true }) reply: Reply): Promise<unknown> {
    try {
      return await this.health.check([
        () =>
          this.indicators
            .check('eventstore')
            .attempt(() => this.events.ping())
            .withTimeout(PING_TIMEOUT_MS),
        () =>
          this.indicators
            .check('documents')
            .attempt(() => this.documents.ping())
            .withTimeout(PING_TIMEOUT_MS),
        () => this.projectionsIndicator(),
        () => this.ownershipIndicator(),
      ]);
    } catch (error) {
      if (error instanceof ServiceUnavailableException) {
        reply.code(503);
        return error.getResponse();
      }
      throw error;
    }
  }
}
