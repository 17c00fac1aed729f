// Child process for profiling the platform access path by hand: the real API app on embedded
// stores with one Enterprise account (limits never reached) and a `read` key, plus the
// benchmark's /bench/plain and /bench/authenticated-noop routes.
//   node dist/test/bench/support/platform-server.js     prints {url, keys} when ready; exits on SIGTERM/SIGINT
import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApi } from '../../api/support/test-api.js';
import { createAccountWithKey } from '../../platform/support/platform-fixtures.js';
import { BENCH_LIMITS } from './bench-kit.js';
import { PlatformBenchRoutesModule } from './platform-bench-routes.js';

const dataDir = mkdtempSync(join(tmpdir(), 'bench-platform-'));
const api = await startTestApi({
  checkOpenApi: false,
  dataDir,
  imports: [PlatformBenchRoutesModule],
  env: { ...BENCH_LIMITS },
});
const { key } = await createAccountWithKey(api.app, {
  plan: 'enterprise',
  perMinute: 10_000_000,
  perHour: 10_000_000,
  scopes: ['read'],
});
process.stdout.write(`${JSON.stringify({ url: api.url, keys: [key] })}\n`);
const stop = () =>
  void api.close().finally(() => {
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
