import { type DynamicModule, Global, Module } from '@nestjs/common';
import type { Logger } from 'pino';
import type { AppConfig } from '#kernel';
import { AppLogger, createLogger, type LoggingOptions, PINO_LOGGER } from './logger.js';

/**
 * Structured logging for every app: one pino instance (PINO_LOGGER) and Nest's LoggerService
 * over it (AppLogger; `app.useLogger(app.get(AppLogger))` after create). The api makes the
 * instance itself (`createLogger`) and passes it as `logger`, because Fastify needs it before
 * Nest exists; request lines are Fastify's (`fastifyLoggingOptions`), not a middleware.
 */
@Global()
@Module({})
export class LoggingModule {
  static forRoot(
    config: Pick<AppConfig, 'logLevel'>,
    options: LoggingOptions & { logger?: Logger } = {},
  ): DynamicModule {
    const logger = options.logger ?? createLogger(config, options);
    return {
      module: LoggingModule,
      providers: [
        { provide: PINO_LOGGER, useValue: logger },
        { provide: AppLogger, useValue: new AppLogger(logger) },
      ],
      exports: [PINO_LOGGER, AppLogger],
    };
  }
}
