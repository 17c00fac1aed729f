import { type DynamicModule, Module } from '@nestjs/common';
import type { Logger } from 'pino';
import { type AppConfig } from '#kernel';
import { LoggingModule, OpenApiModule } from '#http';
import type { ApiAppOptions } from './api-app.options.js';
import { featureModules } from '../features.js';
import { HealthModule } from '../health/health.module.js';
import { StorageModule } from '../storage/storage.module.js';

/** The HTTP app: logging, storage, health, the API description, then the features. */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig, options: ApiAppOptions & { logger?: Logger } = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        LoggingModule.forRoot(config, options.logger ? { logger: options.logger } : {}),
        StorageModule.forRoot(config, { runProjections: config.runProjections, clock: options.clock }),
        HealthModule,
        OpenApiModule.forRoot({
          title: 'svc API',
          version: '1.0.0',
          description:
            'Platform API (/v1, /oauth) and agent data API (/api/v1). Errors: {error, message, code}; /api/v1 errors are RFC 9457 problem+json.',
          servers: [{ url: config.publicUrl ?? '/' }],
        }),
        ...featureModules(config),
        ...(options.imports ?? []),
      ],
    };
  }
}
