import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  type CallHandler,
  type CanActivate,
  Controller,
  type ExecutionContext,
  Get,
  Injectable,
  Module,
  type NestInterceptor,
  Query,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Observable } from 'rxjs';
import { z } from 'zod';
import { AppError, loadConfig } from '#kernel';
import { Operation } from '#http';
import { createApiApp } from '../../libs/runtime/src/api/app.factory.js';
import { waitUntil } from './support/test-api.js';

const listQuery = z.object({ limit: z.coerce.number().int().min(1).max(100).default(20) });

/** Lets a request through only with `x-let-in: yes` (an authentication guard stand-in). */
@Injectable()
class LetInGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<{ headers: Record<string, string | undefined> }>();
    if (request.headers['x-let-in'] !== 'yes')
      throw new AppError('unauthenticated', 'MISSING_AUTH', 'Let me in first.');
    return true;
  }
}

let intercepted = 0;

/** Counts the requests that reached the route's interceptors (a metering stand-in). */
@Injectable()
class CountingInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    intercepted++;
    return next.handle();
  }
}

@Controller('test/logging')
class LoggingTestController {
  // Written above @Operation on purpose: method decorators apply bottom-up, so without the
  // reordering at app creation this guard would run after the validation guard.
  @Get('guarded')
  @UseGuards(LetInGuard)
  @UseInterceptors(CountingInterceptor)
  @Operation({
    summary: 'Guarded list',
    tags: ['test'],
    query: listQuery,
    responses: { 200: { description: 'The limit.' } },
  })
  guarded(@Query() query: z.output<typeof listQuery>) {
    return { limit: query.limit };
  }

  @Get('boom')
  boom(): never {
    throw new Error('kaboom');
  }
}

@Module({ controllers: [LoggingTestController], providers: [CountingInterceptor] })
class LoggingTestModule {}

interface LogLine {
  level: number;
  msg?: string;
  reqId?: string;
  context?: string;
  req?: { method: string; url: string; headers: Record<string, string> };
  res?: { statusCode: number };
  responseTime?: number;
  [key: string]: unknown;
}

async function startApp(
  logLevel: string,
  env: Record<string, string> = {},
): Promise<{ app: NestFastifyApplication; url: string; lines: string[]; close(): Promise<void> }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'svc-logging-'));
  const lines: string[] = [];
  const config = loadConfig({
    SVC_DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: logLevel,
    SVC_BOOTSTRAP: 'false',
    SVC_DEMO_DATA: 'false',
    ...env,
  });
  const app = await createApiApp(config, {
    imports: [LoggingTestModule],
    logStream: { write: (line: string) => void lines.push(line) },
  });
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    app,
    url,
    lines,
    async close() {
      await app.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

const parsed = (lines: string[]): LogLine[] => lines.map((l) => JSON.parse(l) as LogLine);
/** The request lines of the requests that sent `x-request-id: clientId` (the server's own id is `reqId`). */
const requestLines = (lines: string[], clientId: string) =>
  parsed(lines).filter((l) => l.clientRequestId === clientId && l.msg === 'request completed');

describe('request logging and validation order (real HTTP)', () => {
  let api: Awaited<ReturnType<typeof startApp>>;
  before(async () => {
    api = await startApp('info');
  });
  after(async () => {
    await api?.close();
  });

  it("writes every line as JSON, one per request, with status, response time, the server's request id and the client's", async () => {
    const res = await fetch(`${api.url}/health`, { headers: { 'x-request-id': 'log-line-1' } });
    assert.equal(res.status, 200);
    const [line, ...more] = await waitUntil(
      () => (requestLines(api.lines, 'log-line-1').length ? requestLines(api.lines, 'log-line-1') : undefined),
      5_000,
      'the request line',
    );
    assert.equal(more.length, 0, 'one line per request');
    assert.equal(line!.level, 30);
    assert.equal(line!.req?.method, 'GET');
    assert.equal(line!.req?.url, '/health');
    assert.equal(line!.res?.statusCode, 200);
    assert.equal(typeof line!.responseTime, 'number');
    assert.equal(line!.reqId, res.headers.get('x-request-id'), "the server's id, as answered");
    assert.equal(line!.clientRequestId, 'log-line-1');
    // Nothing else mentions the request (no "incoming request" line).
    assert.equal(parsed(api.lines).filter((l) => l.reqId === line!.reqId).length, 1);
    assert.ok(
      parsed(api.lines).some((l) => l.context === 'NestApplication'),
      'Nest logs through the same logger',
    );
  });

  it('redacts credentials from the logged request headers', async () => {
    await fetch(`${api.url}/health`, {
      headers: {
        'x-request-id': 'log-redact-1',
        authorization: 'Bearer svc_test_secretvalue',
        'x-api-key': 'secret-api-key',
        cookie: 'sid=secret-cookie',
      },
    });
    const [line] = await waitUntil(
      () => (requestLines(api.lines, 'log-redact-1').length ? requestLines(api.lines, 'log-redact-1') : undefined),
      5_000,
      'the request line',
    );
    assert.equal(line!.req?.headers.authorization, '[redacted]');
    assert.equal(line!.req?.headers['x-api-key'], '[redacted]');
    assert.equal(line!.req?.headers.cookie, '[redacted]');
    assert.ok(!api.lines.some((l) => l.includes('secret')), 'no credential in any line');
  });

  it('redacts every header whose name says it carries a credential (Idempotency-Key replays an API key)', async () => {
    const sent = {
      'idempotency-key': 'idem-value-1',
      'x-service-signature': 'sha256=sig-value-2',
      'stripe-signature': 't=1,v1=sig-value-3',
      'x-auth-token': 'token-value-4',
      'x-client-secret': 'secret-value-5',
      'proxy-authorization': 'Basic cred-value-6',
      'set-cookie-like': 'cookie-value-7',
    };
    await fetch(`${api.url}/health`, {
      headers: { 'x-request-id': 'log-redact-2', 'x-innocent': 'kept-value', ...sent },
    });
    const [line] = await waitUntil(
      () => (requestLines(api.lines, 'log-redact-2').length ? requestLines(api.lines, 'log-redact-2') : undefined),
      5_000,
      'the request line',
    );
    for (const name of Object.keys(sent)) assert.equal(line!.req?.headers[name], '[redacted]', name);
    assert.equal(line!.req?.headers['x-innocent'], 'kept-value', 'other headers are logged as sent');
    for (const value of Object.values(sent))
      assert.ok(!api.lines.some((l) => l.includes(value)), `${value} in no line`);
  });

  it('redacts credentials put in the query string, and keeps the other parameters', async () => {
    const sent = {
      client_secret: 'qs-value-1',
      api_key: 'qs-value-2',
      code: 'qs-value-3',
      token: 'qs-value-4',
      refresh_token: 'qs-value-5',
      access_token: 'qs-value-6',
      password: 'qs-value-7',
      key: 'qs-value-8',
    };
    const query = new URLSearchParams({ limit: '5', ...sent }).toString();
    await fetch(`${api.url}/health?${query}`, { headers: { 'x-request-id': 'log-redact-3' } });
    const [line] = await waitUntil(
      () => (requestLines(api.lines, 'log-redact-3').length ? requestLines(api.lines, 'log-redact-3') : undefined),
      5_000,
      'the request line',
    );
    const logged = new URL(line!.req!.url, api.url).searchParams;
    assert.equal(logged.get('limit'), '5');
    for (const name of Object.keys(sent)) assert.equal(logged.get(name), '[redacted]', name);
    for (const value of Object.values(sent))
      assert.ok(!api.lines.some((l) => l.includes(value)), `${value} in no line`);
  });

  it('logs 4xx at warn and 5xx at error, and the failure with its request id', async () => {
    assert.equal((await fetch(`${api.url}/no/such/route`, { headers: { 'x-request-id': 'log-404' } })).status, 404);
    const boom = await fetch(`${api.url}/test/logging/boom`, { headers: { 'x-request-id': 'log-500' } });
    assert.equal(boom.status, 500);
    const [notFound] = await waitUntil(
      () => (requestLines(api.lines, 'log-404').length ? requestLines(api.lines, 'log-404') : undefined),
      5_000,
      'the 404 line',
    );
    const [failed] = await waitUntil(
      () => (requestLines(api.lines, 'log-500').length ? requestLines(api.lines, 'log-500') : undefined),
      5_000,
      'the 500 line',
    );
    assert.equal(notFound!.level, 40);
    assert.equal(notFound!.res?.statusCode, 404);
    assert.equal(failed!.level, 50);
    assert.equal(failed!.res?.statusCode, 500);
    const errorLine = parsed(api.lines).find((l) => l.context === 'HttpError' && String(l.msg).includes('kaboom'));
    assert.ok(errorLine, 'the unexpected error is logged with its stack');
    assert.ok(
      String(errorLine.msg).includes(`GET /test/logging/boom failed (request ${boom.headers.get('x-request-id')})`),
    );
  });

  it('validates after the route guards and before its interceptors, whatever the decorator order', async () => {
    const before = intercepted;
    // No credential and a bad query: the guard answers first.
    const unauthenticated = await fetch(`${api.url}/test/logging/guarded?limit=0`);
    assert.equal(unauthenticated.status, 401);
    // Let in, bad query: 400, and the interceptor never ran.
    const invalid = await fetch(`${api.url}/test/logging/guarded?limit=0&extra=1`, { headers: { 'x-let-in': 'yes' } });
    assert.equal(invalid.status, 400);
    const body = (await invalid.json()) as { code: string; details: Array<{ path: string }> };
    assert.equal(body.code, 'VALIDATION_FAILED');
    assert.deepEqual(body.details.map((d) => d.path).sort(), ['query.extra', 'query.limit']);
    assert.equal(intercepted, before);
    // Valid: parsed values (coerced, defaulted) reach the handler, through the interceptor.
    const ok = await fetch(`${api.url}/test/logging/guarded`, { headers: { 'x-let-in': 'yes' } });
    assert.equal(ok.status, 200);
    assert.deepEqual(await ok.json(), { limit: 20 });
    assert.equal(intercepted, before + 1);
  });
});

describe('request logging at LOG_LEVEL=silent', () => {
  let api: Awaited<ReturnType<typeof startApp>>;
  before(async () => {
    api = await startApp('silent');
  });
  after(async () => {
    await api?.close();
  });

  it('writes nothing, and still answers with the request id', async () => {
    const res = await fetch(`${api.url}/no/such/route`, { headers: { 'x-request-id': 'silent-1' } });
    assert.equal(res.status, 404);
    assert.match(res.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
    const made = await fetch(`${api.url}/health`);
    assert.match(made.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
    assert.deepEqual(api.lines, []);
  });
});

describe('configuration warnings at start', () => {
  it('a Stripe key without STRIPE_WEBHOOK_SECRET is logged at warn before anything else serves', async () => {
    const api = await startApp('info', { STRIPE_SECRET_KEY: 'sk_test_abc' });
    try {
      const warning = parsed(api.lines).find((l) => l.level === 40 && String(l.msg).includes('STRIPE_WEBHOOK_SECRET'));
      assert.ok(warning, 'a warn line names STRIPE_WEBHOOK_SECRET');
    } finally {
      await api.close();
    }
  });
});
