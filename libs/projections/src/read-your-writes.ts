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

  /**
   * Waits (bounded by the same timeout) until the named projections show everything appended so
   * far, by any process; whether they were behind. For a lookup that missed: a key the CLI issued
   * a moment ago must work at once here.
   */
  async catchUpWithStore(projections: string[]): Promise<boolean> {
    return this.runner.catchUpWithHead({ projections, timeoutMs: this.config.readYourWritesTimeoutMs });
  }
}
