// The api main (apps/api/src/main.ts) with its clock moved by TEST_CLOCK_OFFSET_MS: the same
// configuration, app and listening line, for an e2e test that needs the service's time somewhere
// (the start of a minute window) without waiting for the wall clock to get there.
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { type Clock, loadConfig } from '#kernel';
import { createApiApp } from '#runtime';

const offsetMs = Number(process.env.TEST_CLOCK_OFFSET_MS ?? 0);
const clock: Clock = { now: () => new Date(Date.now() + offsetMs) };

async function main(): Promise<void> {
  const config = loadConfig();
  const app = await createApiApp(config, { clock });
  app.enableShutdownHooks(['SIGTERM', 'SIGINT']);
  await app.listen(config.port, config.host);
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  new Logger('Main').log(`listening on http://${config.host}:${port} (clock moved by ${offsetMs} ms)`);
}

main().catch((error: unknown) => {
  process.stderr.write(`shifted-clock api failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
