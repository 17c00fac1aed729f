import { type DynamicModule, Module, type Type } from '@nestjs/common';
import { type AppConfig } from '#kernel';
import { LoggingModule } from '#http';
import type { CommitInfo } from '#projections';
import { featureModules } from '../features.js';
import { StorageModule } from '../storage/storage.module.js';

/**
 * The CLI's application context: the same storage and features (hence the same projections) as
 * the api, no HTTP, no projections running. Logs go to stderr, quiet unless LOG_LEVEL is set.
 */
@Module({})
export class CliModule {
  static forRoot(
    config: AppConfig,
    options: {
      imports?: Array<Type | DynamicModule>;
      logLevel?: AppConfig['logLevel'];
      onCommit?: (info: CommitInfo) => void;
    } = {},
  ): DynamicModule {
    return {
      module: CliModule,
      imports: [
        LoggingModule.forRoot(config, { destination: 'stderr', level: options.logLevel ?? config.logLevel }),
        StorageModule.forRoot(config, {
          runProjections: false,
          ...(options.onCommit ? { onCommit: options.onCommit } : {}),
        }),
        ...featureModules(config),
        ...(options.imports ?? []),
      ],
    };
  }
}
