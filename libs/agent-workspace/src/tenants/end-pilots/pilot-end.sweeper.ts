import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from '#kernel';
import { BACKGROUND_WORK, type BackgroundWork, PeriodicSweeper, ProjectionStore, ReadYourWrites } from '#projections';
import { TENANTS_COLLECTION, type TenantDoc, WORKSPACE_PROJECTION } from '../../workspace.projection.js';
import { TenantProvisioning } from '../tenant-provisioning.js';

/** How often the sweeper looks (real time); the pilots' ends are on the injected clock. */
export const PILOT_SWEEP_INTERVAL_MS = 60_000;

/**
 * Records the end (WorkspacePilotEnded) of every running pilot whose `ends_at` has passed by the
 * injected clock, where background work runs (the api with projections, the worker). Writes never
 * wait for it: the guard refuses them from `ends_at` on by itself (tenantAccess), so the event is
 * the audit and the read model's state, not the switch. Safe with several sweepers: the tenant's
 * stream decides, and a second end is a no-op.
 */
@Injectable()
export class PilotEndSweeper extends PeriodicSweeper {
  constructor(
    private readonly provisioning: TenantProvisioning,
    private readonly projections: ProjectionStore,
    private readonly readYourWrites: ReadYourWrites,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(BACKGROUND_WORK) background: BackgroundWork,
  ) {
    super('PilotEnd', PILOT_SWEEP_INTERVAL_MS, background);
  }

  /** Ends every due pilot; resolves with how many, once the read model shows them. */
  protected async sweepOnce(): Promise<number> {
    const now = this.clock.now();
    const tenants = this.projections.collection<TenantDoc>(WORKSPACE_PROJECTION, TENANTS_COLLECTION);
    const { changed, last } = await this.eachPage(
      (after) =>
        tenants.find(
          { pilot_state: 'running', pilot_ends_at: { $lte: now.toISOString() } },
          { sort: [['pilot_ends_at', 1]], limit: 100, ...(after ? { after } : {}) },
        ),
      async (doc) => this.provisioning.endPilot(doc.id, now),
    );
    await this.readYourWrites.waitFor(last, [WORKSPACE_PROJECTION]);
    if (changed > 0) this.logger.log(`${changed} operator pilot(s) ended`);
    return changed;
  }
}
