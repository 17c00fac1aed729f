import type { Socket } from 'node:net';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  acceptEmptyJsonBodies,
  AllExceptionsFilter,
  AppLogger,
  BODY_LIMIT_BYTES,
  browserCookiePolicy,
  clientErrorResponse,
  createLogger,
  fastifyLoggingOptions,
  OpenApiService,
  placeValidationGuardsLast,
  registerBrowserForms,
  RouteMethods,
  toErrorResponse,
} from '#http';
import { type AppConfig, configWarnings } from '#kernel';
import { agentNextActionsEnricher } from '#agent-surface';
import { AppModule } from './app.module.js';
import type { ApiAppOptions } from './api-app.options.js';

export type { ApiAppOptions };

/**
 * Creates the API application without listening: Fastify with the 1 MiB body limit, pino
 * logging (one logger: Fastify logs one line per request, Nest logs through AppLogger), the
 * global error filter, the browser pages' cookie and CSRF plugins, the HTTP server's timeouts
 * and header limit (config.http) and shutdown hooks; configuration warnings are logged first.
 * main.ts and the HTTP tests share it.
 */
export async function createApiApp(config: AppConfig, options: ApiAppOptions = {}): Promise<NestFastifyApplication> {
  const logger = createLogger(config, options.logStream ? { stream: options.logStream } : {});
  // Every 4xx of the agent surface says what to do next; a 400 links the documentation of its
  // operation, known once the app (and so the OpenAPI document) exists.
  const documented: { openapi?: OpenApiService } = {};
  // A path served with other methods answers 405 with Allow, known once the routes are added.
  const routing: { methods?: RouteMethods } = {};
  const errorOptions = {
    problemTypeBase: config.publicUrl,
    enrich: agentNextActionsEnricher({
      config,
      operationAt: (method, path) => documented.openapi?.operationAt(method, path),
    }),
    allowedMethods: (path: string) => routing.methods?.allowed(path) ?? [],
  };
  const filter = new AllExceptionsFilter(errorOptions);
  for (const warning of configWarnings(config)) logger.warn({ context: 'Config' }, warning);
  const limits = config.http;
  const adapter = new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    // request.ip is the socket's address unless the peer is a configured proxy: a client's own
    // X-Forwarded-For is never believed (anonymous limits count per address).
    // (Fastify takes a hop count too; its adapter's type omits it.)
    trustProxy: (config.trustedProxies ?? false) as boolean | string | string[],
    // Slow and idle clients are cut off (a slowloris sending a header byte a second holds a
    // socket only until headersTimeout); Node checks the header and request timers every
    // connectionsCheckingInterval, so that interval bounds how late the cut comes. Those timers
    // cover requests being received only; an idle kept-alive connection is held for
    // keepAliveTimeout (72 s by default, advertised in Keep-Alive: timeout=N), longer than
    // clients and proxies hold theirs, so none reuses a connection the server just closed (ADR 0077).
    connectionTimeout: limits.idleTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    http: {
      headersTimeout: limits.headersTimeoutMs,
      maxHeaderSize: limits.maxHeaderBytes,
      connectionsCheckingInterval: Math.min(1000, Math.max(50, Math.floor(limits.headersTimeoutMs / 4))),
    },
    ...fastifyLoggingOptions(logger),
    // Errors Fastify's router raises before any route runs (an undecodable URL) never reach
    // Nest's filters: answer them in the same shape here.
    // Requests Node cannot parse (bad syntax, oversized headers) get the shape too.
    clientErrorHandler(error: Error & { code?: string }, socket: Socket) {
      if (socket.writable) socket.end(clientErrorResponse(error, errorOptions));
      else socket.destroy();
    },
    frameworkErrors(error: Error, request: FastifyRequest, reply: FastifyReply) {
      const response = toErrorResponse(
        error,
        { method: request.method, path: request.url.split('?')[0] ?? '/', url: request.url, raw: request },
        errorOptions,
      );
      void reply.code(response.status).headers(response.headers).send(JSON.stringify(response.body));
    },
  });
  // Before Nest adds its routes (at init): every route, the plugins' too, is tracked.
  routing.methods = RouteMethods.track(adapter.getInstance());
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(config, { ...options, logger }),
    adapter,
    {
      bufferLogs: true,
      abortOnError: false,
    },
  );
  app.useLogger(app.get(AppLogger));
  acceptEmptyJsonBodies(app);
  // Cookies and CSRF tokens for the browser pages (/login, /dashboard); the JSON API uses neither.
  await registerBrowserForms(app, browserCookiePolicy(config.publicUrl));
  documented.openapi = app.get(OpenApiService);
  // Routes read their guards when the app initialises (listen): validation goes last before that.
  placeValidationGuardsLast(app);
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRequest', (request, reply, done) => {
      // On the raw response, so the routes that take the reply over (MCP, OAuth) answer with it too.
      reply.raw.setHeader('x-request-id', request.id);
      done();
    });
  app.useGlobalFilters(filter);
  return app;
}
