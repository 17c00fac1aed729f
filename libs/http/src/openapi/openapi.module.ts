import { type DynamicModule, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { DocsController } from './docs.controller.js';
import type { OpenApiInfo } from './openapi-document.js';
import { OPENAPI_INFO, OpenApiService } from './openapi.service.js';

/**
 * Serves the generated API description and its reference page under /docs/api. Global, so a
 * feature that serves routes outside Nest's router (oidc-provider's) documents them here.
 */
@Module({})
export class OpenApiModule {
  static forRoot(info: OpenApiInfo): DynamicModule {
    return {
      module: OpenApiModule,
      global: true,
      imports: [DiscoveryModule],
      controllers: [DocsController],
      providers: [{ provide: OPENAPI_INFO, useValue: info }, OpenApiService],
      exports: [OpenApiService],
    };
  }
}
