import { Injectable, Module } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';

interface RouteOptions {
  method: string | string[];
  url: string;
}

/**
 * Every route the HTTP router (Fastify) is given, whoever adds it, recorded by an `onRoute` hook
 * installed before Nest registers its routes: what the router serves, not what any table says.
 */
@Injectable()
export class RouteRecorder {
  readonly routes: Array<{ method: string; path: string }> = [];

  constructor(adapterHost: HttpAdapterHost) {
    const fastify = adapterHost.httpAdapter.getInstance() as {
      addHook(name: 'onRoute', hook: (route: RouteOptions) => void): unknown;
    };
    fastify.addHook('onRoute', (route) => {
      // `/api/v1/companies/:id` → `/api/v1/companies/{id}`, the documents' templates.
      const path = route.url.replace(/:([A-Za-z_]+)/g, '{$1}');
      for (const method of [route.method].flat()) this.routes.push({ method, path });
    });
  }
}

@Module({ providers: [RouteRecorder] })
export class RouteRecorderModule {}
