import { type DynamicModule, Module } from '@nestjs/common';
import { type AppConfig } from '#kernel';
import { LoggingModule } from '#http';
import { featureModules } from '../features.js';
import { StorageModule } from '../storage/storage.module.js';

/** The worker: the same features and storage as the api, no HTTP; it always runs projections and
 * the webhook dispatchers (BACKGROUND_WORK), the api only when `config.runProjections`. */
@Module({})
export class WorkerModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        LoggingModule.forRoot(config),
        StorageModule.forRoot(config, { runProjections: true }),
        ...featureModules(config),
      ],
    };
  }
}
