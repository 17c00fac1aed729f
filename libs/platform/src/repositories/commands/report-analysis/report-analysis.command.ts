import { Command } from '@nestjs/cqrs';
import type { CommandOptions } from '#projections';
import type { AnalysisView } from '../../repository.view.js';

export class ReportAnalysisCommand extends Command<AnalysisView> {
  constructor(
    readonly input: {
      accountId: string;
      repositoryId: string;
      summary: string;
      commitSha: string | null;
      languages: string[];
      metrics: Record<string, number>;
      by: string | null;
    },
    readonly options: CommandOptions = {},
  ) {
    super();
  }
}
