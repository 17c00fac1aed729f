import 'reflect-metadata';
import { Logger as NestLogger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppLogger } from '#http';
import { ConfigError, loadConfig } from '#kernel';
import { WorkerModule } from '#runtime';

/**
 * `npm run start:worker`: projections and the webhook dispatchers without HTTP, for the
 * scaled mode. Runs until SIGTERM/SIGINT, then stops the runner and closes the stores.
 */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config), {
    bufferLogs: true,
    abortOnError: false,
  });
  app.useLogger(app.get(AppLogger));
  app.enableShutdownHooks(['SIGTERM', 'SIGINT']);
  await app.init();
  // The runner's own timers may not hold the event loop; this does, until shutdown.
  const keepAlive = setInterval(() => {}, 1 << 30);
  const stop = () => clearInterval(keepAlive);
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  new NestLogger('Worker').log(`worker started (data: ${config.eventStoreUrl ? 'EventStoreDB' : config.dataDir})`);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `svc worker failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
