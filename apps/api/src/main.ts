import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { ConfigError, loadConfig } from '#kernel';
import { createApiApp } from '#runtime';

/** `npm start`: validate the configuration, build the app, serve HOST:PORT until SIGTERM/SIGINT. */
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
  const app = await createApiApp(config);
  // SIGTERM/SIGINT: Nest closes the HTTP server (in-flight requests finish), then the storage
  // module stops the projection runner and closes the stores.
  app.enableShutdownHooks(['SIGTERM', 'SIGINT']);
  await app.listen(config.port, config.host);
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  new Logger('Main').log(
    `listening on http://${host}:${port} (data: ${config.eventStoreUrl ? 'EventStoreDB' : config.dataDir})`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(
    `svc api failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
