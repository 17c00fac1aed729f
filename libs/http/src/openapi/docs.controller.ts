import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Controller, Get, Header, Param, Res } from '@nestjs/common';
import { Errors } from '#kernel';
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
  header(name: string, value: string): Reply;
}

/** GET /docs/api (interactive reference), /docs/api/openapi.v1.yaml and .json. Public. */
@Controller('docs/api')
export class DocsController {
  private readonly cache = new Map<string, Buffer>();

  constructor(private readonly openapi: OpenApiService) {}

  @Get()
  @Header('content-type', 'text/html; charset=utf-8')
  page(): string {
    return PAGE;
  }

  @Get('openapi.v1.yaml')
  @Header('content-type', 'application/yaml; charset=utf-8')
  yaml(): string {
    return this.openapi.yaml();
  }

  @Get('openapi.v1.json')
  @Header('content-type', 'application/json; charset=utf-8')
  json(): string {
    return JSON.stringify(this.openapi.document());
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
