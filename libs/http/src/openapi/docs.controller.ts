import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Controller, Get, Header, Param, Req, Res } from '@nestjs/common';
import { Errors } from '#kernel';
import { z } from 'zod';
import {
  type CacheableDocument,
  cacheableDocument,
  cacheableResponses,
  sendCacheable,
} from '../http/cacheable-response.js';
import { Operation } from './operation.decorator.js';
import { OpenApiService } from './openapi.service.js';

/** The swagger-ui-dist files the reference page loads, served from node_modules (no CDN). */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};
const assetDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>API reference</title>
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <link rel="stylesheet" href="/docs/api/assets/swagger-ui.css">
  <link rel="icon" type="image/png" href="/docs/api/assets/favicon-32x32.png" sizes="32x32">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/api/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/api/assets/swagger-ui-standalone-preset.js"></script>
  <script src="/docs/api/assets/init.js"></script>
</body>
</html>
`;

// A separate file rather than an inline script, so a strict Content-Security-Policy still works.
const INIT = `window.onload = function () {
  window.ui = SwaggerUIBundle({
    url: '/docs/api/openapi.v1.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: 'StandaloneLayout',
  });
};
`;

interface Reply {
  code(status: number): Reply;
  header(name: string, value: string): Reply;
  send(body?: string): unknown;
}

interface Request {
  headers: Record<string, string | string[] | undefined>;
}

/** GET /docs/api (interactive reference), /docs/api/openapi.v1.yaml and .json. Public. */
@Controller('docs/api')
export class DocsController {
  private readonly cache = new Map<string, Buffer>();
  /** The two descriptions with their ETags: the document is fixed once the app is up. */
  private readonly descriptions = new Map<'yaml' | 'json', CacheableDocument>();

  constructor(private readonly openapi: OpenApiService) {}

  private description(format: 'yaml' | 'json'): CacheableDocument {
    let found = this.descriptions.get(format);
    if (!found) {
      found =
        format === 'yaml'
          ? cacheableDocument(this.openapi.yaml(), 'application/yaml; charset=utf-8')
          : cacheableDocument(JSON.stringify(this.openapi.document()), 'application/json; charset=utf-8');
      this.descriptions.set(format, found);
    }
    return found;
  }

  @Get()
  @Header('content-type', 'text/html; charset=utf-8')
  page(): string {
    return PAGE;
  }

  // ETag, 304 and a five-minute Cache-Control: agents and registries poll these descriptions.
  @Get('openapi.v1.yaml')
  @Operation({
    operationId: 'openapiYaml',
    summary: 'This API description (OpenAPI 3.1, YAML)',
    description: 'The OpenAPI document built from the operations the server serves, as YAML. Public.',
    tags: ['openapi'],
    responses: cacheableResponses('The OpenAPI document.', { contentType: 'application/yaml' }),
  })
  yaml(@Req() request: Request, @Res() reply: Reply): void {
    sendCacheable(request, reply, this.description('yaml'));
  }

  @Get('openapi.v1.json')
  @Operation({
    operationId: 'openapiJson',
    summary: 'This API description (OpenAPI 3.1, JSON)',
    description: 'The same OpenAPI document as JSON. Public.',
    tags: ['openapi'],
    responses: cacheableResponses('The OpenAPI document.', {
      contentType: 'application/json',
      schema: z.looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.looseObject({}) }),
    }),
  })
  json(@Req() request: Request, @Res() reply: Reply): void {
    sendCacheable(request, reply, this.description('json'));
  }

  @Get('assets/:file')
  async asset(@Param('file') file: string, @Res({ passthrough: true }) reply: Reply): Promise<Buffer | string> {
    if (file === 'init.js') {
      reply.header('content-type', 'text/javascript; charset=utf-8');
      return INIT;
    }
    const type = Object.hasOwn(ASSETS, file) ? ASSETS[file] : undefined;
    if (!type) throw Errors.notFound('No such asset.');
    let data = this.cache.get(file);
    if (!data) {
      data = await readFile(join(assetDir, file));
      this.cache.set(file, data);
    }
    reply.header('content-type', type).header('cache-control', 'public, max-age=86400');
    return data;
  }
}
