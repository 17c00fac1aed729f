import { Inject, Injectable } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { RequestMethod } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { stringify } from 'yaml';
import { getOperation } from './operation.metadata.js';
import {
  buildOpenApiDocument,
  type OpenApiDocument,
  type OpenApiInfo,
  operationLookup,
  type OperationRef,
  type OperationRoute,
} from './openapi-document.js';

export const OPENAPI_INFO = Symbol('OPENAPI_INFO');

const asList = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : [v === undefined ? '' : String(v)]);

/**
 * Finds every controller method carrying @Operation (Nest's DiscoveryService) and builds the
 * OpenAPI 3.1 document from their schemas. The routes are also what the MCP tools reuse.
 */
@Injectable()
export class OpenApiService {
  private cached?: OpenApiDocument;
  private cachedYaml?: string;
  private lookup?: (method: string, path: string) => OperationRef | undefined;

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    @Inject(OPENAPI_INFO) private readonly info: OpenApiInfo,
  ) {}

  /** Routes served outside Nest's router (mounted on Fastify directly), documented as they are mounted. */
  private readonly external: OperationRoute[] = [];

  /** Documents routes that are not Nest controllers; call before the app serves requests. */
  addRoutes(routes: OperationRoute[]): void {
    this.external.push(...routes);
    this.cached = undefined;
    this.cachedYaml = undefined;
    this.lookup = undefined;
  }

  routes(): Array<OperationRoute & { instance: object; methodName: string }> {
    const routes: Array<OperationRoute & { instance: object; methodName: string }> = [];
    for (const wrapper of this.discovery.getControllers()) {
      const { metatype, instance } = wrapper;
      if (!metatype || !instance) continue;
      const prefixes = asList(Reflect.getMetadata(PATH_METADATA, metatype));
      const proto = Object.getPrototypeOf(instance) as object;
      for (const methodName of this.scanner.getAllMethodNames(proto)) {
        const handler = (proto as Record<string, (...args: never[]) => unknown>)[methodName]!;
        const spec = getOperation(handler);
        if (!spec) continue;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
        for (const prefix of prefixes) {
          for (const path of asList(Reflect.getMetadata(PATH_METADATA, handler))) {
            routes.push({
              method,
              path: `/${prefix}/${path}`,
              spec,
              handlerName: `${metatype.name}_${methodName}`,
              instance,
              methodName,
            });
          }
        }
      }
    }
    return routes;
  }

  document(): OpenApiDocument {
    // Routes are fixed once the app is up, so the document is built once.
    this.cached ??= buildOpenApiDocument(this.info, [...this.routes(), ...this.external]);
    return this.cached;
  }

  /**
   * The same document as YAML, rendered on first ask: rendering it took about 80 ms of each
   * start (a fifth of a test app's start), for a page few clients read.
   */
  yaml(): string {
    this.cachedYaml ??= this.renderYaml(this.document());
    return this.cachedYaml;
  }

  private renderYaml(json: OpenApiDocument): string {
    return stringify(json, { aliasDuplicateObjects: false, lineWidth: 0 });
  }

  /** The documented operation a request (method, concrete path) went to; undefined for none. */
  operationAt(method: string, path: string): OperationRef | undefined {
    this.lookup ??= operationLookup(this.document());
    return this.lookup(method, path);
  }
}
