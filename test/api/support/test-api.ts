import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DynamicModule, Type } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type AppConfig, type Clock, loadConfig } from '#kernel';
import { OpenApiService } from '#http';
import { createApiApp } from '../../../libs/runtime/src/api/app.factory.js';
import { type Exchange, OpenApiExchangeValidator } from './openapi-exchanges.js';

export interface TestApi {
  url: string;
  app: NestFastifyApplication;
  config: AppConfig;
  dataDir: string;
  /**
   * Where the answers so far disagreed with the served OpenAPI document (ADR 0079); close()
   * fails with them, so every test that starts an app checks every response it provokes.
   */
  openapiProblems: string[];
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
    /**
     * Check every answer against the OpenAPI document (default true). The bench servers turn it
     * off: the check parses and validates each body, which is not the work being measured.
     */
    checkOpenApi?: boolean;
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
  const openapiProblems = options.checkOpenApi === false ? [] : checkExchanges(app);
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
    openapiProblems,
    async close() {
      await app.close();
      if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
      if (openapiProblems.length)
        throw new Error(
          `${openapiProblems.length} answers disagree with the OpenAPI document:\n${[...new Set(openapiProblems)].join('\n')}`,
        );
    },
  };
}

/**
 * Checks every answer of the app against its own served OpenAPI document, through Fastify's
 * hooks: `onSend` sees the body (routes that write the raw response, MCP and oidc-provider,
 * skip it: their status and media type are still checked), `onResponse` the status. The hooks
 * go on the root instance before the routes exist, so every route inherits them.
 */
function checkExchanges(app: NestFastifyApplication): string[] {
  const problems: string[] = [];
  const bodies = new WeakMap<object, string | Buffer>();
  let validator: OpenApiExchangeValidator | undefined;
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onSend', (request, _reply, payload, done) => {
    if (typeof payload === 'string' || Buffer.isBuffer(payload)) bodies.set(request, payload);
    else if (payload === null || payload === undefined) bodies.set(request, '');
    done(null, payload);
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    validator ??= OpenApiExchangeValidator.for(app.get(OpenApiService).document());
    const exchange: Exchange = {
      method: request.method,
      path: request.url,
      route: request.routeOptions.url,
      status: reply.statusCode,
      contentType: headerValue(reply.raw.getHeader('content-type')),
      body: bodies.get(request),
      requestContentType: request.headers['content-type'],
      requestBody: request.body,
    };
    // Undocumented routes (404s of the router, test-only controllers) are not this check's concern.
    if (exchange.route !== undefined) problems.push(...validator.check(exchange));
    done();
  });
  return problems;
}

const headerValue = (v: number | string | string[] | undefined) => (Array.isArray(v) ? v.join(', ') : v?.toString());

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
