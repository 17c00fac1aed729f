import { type DynamicModule, Module } from '@nestjs/common';
import { type AppConfig } from '#kernel';
import { LoggingModule } from '#http';
import { featureModules } from '../features.js';
import { StorageModule } from '../storage/storage.module.js';
import { WorkerHealthServer } from './worker-health.js';

/** The worker: the same features and storage as the api, no API; it always runs projections and
 * the webhook dispatchers (BACKGROUND_WORK), the api only when `config.runProjections`; each job
 * only while it holds the job's lease (ADR 0067). A health port when SVC_WORKER_HEALTH_PORT is set. */
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
      providers: [WorkerHealthServer],
    };
  }
}
