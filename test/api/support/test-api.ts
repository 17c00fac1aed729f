import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DynamicModule, Type } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type AppConfig, type Clock, loadConfig } from '#kernel';
import { createApiApp } from '../../../libs/runtime/src/api/app.factory.js';

export interface TestApi {
  url: string;
  app: NestFastifyApplication;
  config: AppConfig;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * Starts the real API app on 127.0.0.1, port 0, over a fresh temporary SVC_DATA_DIR (removed on
 * close). `imports` adds test-only modules (controllers, projections); `clock` replaces the system clock.
 */
export async function startTestApi(
  options: {
    imports?: Array<Type | DynamicModule>;
    env?: Record<string, string>;
    dataDir?: string;
    clock?: Clock;
    /** Log lines go here (LOG_LEVEL as set in env, else TEST_LOG_LEVEL, else silent). */
    logStream?: { write(line: string): void };
    /** Runs on the app before it initialises (routes are added then), e.g. to add Fastify hooks. */
    beforeListen?: (app: NestFastifyApplication) => void;
  } = {},
): Promise<TestApi> {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'svc-api-')));
  // No D4 bootstrap key line in test output: tests make their accounts (test/platform/support).
  // No demo companies either (D20): tests that need companies import their own or turn it on.
  const config = loadConfig({
    SVC_DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    SVC_BOOTSTRAP: 'false',
    SVC_DEMO_DATA: 'false',
    ...options.env,
  });
  const app = await createApiApp(config, {
    imports: options.imports,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.logStream ? { logStream: options.logStream } : {}),
  });
  options.beforeListen?.(app);
  try {
    await app.listen(0, '127.0.0.1');
  } catch (error) {
    await app.close();
    throw error;
  }
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    app,
    config,
    dataDir,
    async close() {
      await app.close();
      if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Polls `check` until it returns a value other than undefined, or fails after `timeoutMs`. */
export async function waitUntil<T>(
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
