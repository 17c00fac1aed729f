import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, Errors, ID_GENERATOR, type IdGenerator } from '#kernel';
import { decideAndAppend, EVENT_STORE, type EventStore } from '#eventstore';
import { ProjectionStore } from '#projections';
import { PLATFORM_EVENTS_PROJECTION } from '../../../platform-events/platform-events.projection.js';
import { REPOSITORIES_PROJECTION } from '../../../repositories/repositories.projection.js';
import { RepositoryLookup } from '../../../repositories/repository-lookup.js';
import { ReadYourWrites } from '#projections';
import { securityDecider } from '../../security.decider.js';
import { securityStream } from '../../security.events.js';
import { type ScanDoc, SECURITY_PROJECTION, SECURITY_SCANS_COLLECTION } from '../../security.projection.js';
import { type SecurityScanView, toSecurityScanView } from '../../security.view.js';
import { ReportScanCommand } from './report-scan.command.js';

/**
 * A scanner's full list for a connected repository, diffed against the open alerts on the
 * repository's security stream: security.alert per new one, security.resolved per one gone,
 * then security.scan_completed, all in one append.
 */
@CommandHandler(ReportScanCommand)
export class ReportScanHandler implements ICommandHandler<ReportScanCommand, SecurityScanView> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly readYourWrites: ReadYourWrites,
    private readonly repositories: RepositoryLookup,
    private readonly projections: ProjectionStore,
  ) {}

  async execute({ input, options }: ReportScanCommand): Promise<SecurityScanView> {
    const repository = await this.repositories.connected(input.accountId, input.repositoryId);
    const scanId = this.ids.next('scan');
    const { position } = await decideAndAppend(this.events, securityStream(repository.id), securityDecider, {
      type: 'ReportScan',
      scanId,
      accountId: input.accountId,
      repository: { id: repository.id, name: repository.name },
      scanner: input.scanner,
      vulnerabilities: input.vulnerabilities,
      by: input.by,
      now: this.clock.now(),
    });
    await this.readYourWrites.waitFor(
      position,
      [SECURITY_PROJECTION, REPOSITORIES_PROJECTION, PLATFORM_EVENTS_PROJECTION],
      options,
    );
    const scan = await this.projections.collection<ScanDoc>(SECURITY_PROJECTION, SECURITY_SCANS_COLLECTION).get(scanId);
    if (!scan) throw Errors.unavailable('The scan is recorded but not readable yet; retry the read shortly.');
    return toSecurityScanView(scan);
  }
}
