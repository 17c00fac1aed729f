import { Command } from '@nestjs/cqrs';
import type { CommandOptions } from '#projections';
import type { ReportedVulnerability } from '../../security.events.js';
import type { SecurityScanView } from '../../security.view.js';

export class ReportScanCommand extends Command<SecurityScanView> {
  constructor(
    readonly input: {
      accountId: string;
      repositoryId: string;
      scanner: string | null;
      vulnerabilities: ReportedVulnerability[];
      by: string | null;
    },
    readonly options: CommandOptions = {},
  ) {
    super();
  }
}
