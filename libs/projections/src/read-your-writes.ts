import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '#kernel';
import { ProjectionRunner } from './projection-runner.js';

/** Whether a command waits for its read models before answering (the CLI does not: no projections run there). */
export interface CommandOptions {
  readYourWrites?: boolean;
}

/** Waits (bounded by SVC_READ_YOUR_WRITES_TIMEOUT_MS) until the named projections passed a position. */
@Injectable()
export class ReadYourWrites {
  constructor(
    private readonly runner: ProjectionRunner,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'readYourWritesTimeoutMs'>,
  ) {}

  async waitFor(position: number | null, projections: string[], options: CommandOptions = {}): Promise<void> {
    if (position === null || options.readYourWrites === false) return;
    await this.runner.waitFor(position, { projections, timeoutMs: this.config.readYourWritesTimeoutMs });
  }
}
