// The HTTP edge shared by both surfaces: the error shape and filter, @Operation with zod
// validation, the OpenAPI document, request logging, list pagination, public URLs.
export * from './http/error-response.js';
export * from './http/error-table.js';
export * from './http/all-exceptions.filter.js';
export * from './http/zod-validation.js';
export * from './http/operation-validation.guard.js';
export * from './http/public-url.js';
export * from './http/cacheable-response.js';
export * from './http/pagination.js';
export * from './http/find-page.js';
export * from './http/prefers-json.js';
export * from './openapi/operation.metadata.js';
export * from './openapi/operation.decorator.js';
export * from './openapi/schema-collector.js';
export * from './openapi/openapi-document.js';
export * from './openapi/openapi-structure.js';
export * from './openapi/openapi.service.js';
export * from './openapi/docs.controller.js';
export * from './openapi/openapi.module.js';
export * from './logging/logging.module.js';
export * from './logging/logger.js';
export * from './logging/request-logging.js';
// Server-rendered pages: escaped templates, cookies and CSRF tokens (ADR 0065).
export * from './browser/html.js';
export * from './browser/browser-forms.js';
// Request bodies and routing: an empty JSON body is no body; 405 with Allow.
export * from './http/json-body.js';
export * from './http/route-methods.js';
