import FindMyWay from 'find-my-way';
import type { FastifyInstance, HTTPMethods } from 'fastify';

/** The methods a 405's Allow header can name (OPTIONS and the rest are never routed here). */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * Which methods each path takes, for the 405 of a path that exists with other methods (RFC 9110
 * §15.5.6: a 405 must list them in Allow). Fed by Fastify's `onRoute` hook with every route the
 * app registers, and matched by find-my-way, the router Fastify itself uses, with the app's own
 * router options: a path matches here exactly when Fastify would route it.
 */
export class RouteMethods {
  private readonly router: FindMyWay.Instance<FindMyWay.HTTPVersion.V1>;
  private readonly added = new Set<string>();

  constructor(
    options: {
      caseSensitive?: boolean;
      ignoreTrailingSlash?: boolean;
      ignoreDuplicateSlashes?: boolean;
      maxParamLength?: number;
    } = {},
  ) {
    this.router = FindMyWay(options);
  }

  add(method: string | readonly string[], url: string): void {
    for (const m of typeof method === 'string' ? [method] : method) {
      const upper = m.toUpperCase();
      if (!(METHODS as readonly string[]).includes(upper)) continue;
      // Fastify adds HEAD for each GET route itself; a route taking both is added once.
      for (const each of upper === 'GET' ? ['GET', 'HEAD'] : [upper]) {
        const key = `${each} ${url}`;
        if (this.added.has(key)) continue;
        this.added.add(key);
        this.router.on(each as FindMyWay.HTTPMethod, url, () => undefined);
      }
    }
  }

  /** The methods `path` (no query) is routed with; empty when it is routed with none. */
  allowed(path: string): string[] {
    return METHODS.filter((m) => this.router.find(m, path) !== null);
  }

  /** Routes of `fastify` registered from now on are tracked (call before the app registers its routes). */
  static track(fastify: FastifyInstance): RouteMethods {
    const config = fastify.initialConfig;
    const router = { ...config, ...config.routerOptions };
    const methods = new RouteMethods({
      caseSensitive: router.caseSensitive,
      ignoreTrailingSlash: router.ignoreTrailingSlash,
      ignoreDuplicateSlashes: router.ignoreDuplicateSlashes,
      maxParamLength: router.maxParamLength,
    });
    fastify.addHook('onRoute', (route) => methods.add(route.method as HTTPMethods | HTTPMethods[], route.url));
    return methods;
  }
}
