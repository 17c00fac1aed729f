import { type DynamicModule, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { DocsController } from './docs.controller.js';
import type { OpenApiInfo } from './openapi-document.js';
import { OPENAPI_INFO, OpenApiService } from './openapi.service.js';

/** Serves the generated API description and its reference page under /docs/api. */
@Module({})
export class OpenApiModule {
  static forRoot(info: OpenApiInfo): DynamicModule {
    return {
      module: OpenApiModule,
      imports: [DiscoveryModule],
      controllers: [DocsController],
      providers: [{ provide: OPENAPI_INFO, useValue: info }, OpenApiService],
      exports: [OpenApiService],
    };
  }
}
