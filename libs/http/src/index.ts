// The HTTP edge shared by both surfaces: the error shape and filter, @Operation with zod
// validation, the OpenAPI document, request logging, list pagination, public URLs.
export {
  BODY_LIMIT_BYTES,
  clientErrorResponse,
  type ErrorResponse,
  type ErrorResponseOptions,
  isProblemPath,
  methodNotAllowed,
  PROBLEM_JSON_PREFIXES,
  type ProblemContext,
  type ProblemEnricher,
  toErrorResponse,
  toHttpError,
} from './http/error-response.js';
export { HttpEdgeError, type HttpError, httpErrorBody, httpErrorOf, httpStatusOf } from './http/error-table.js';
export { AllExceptionsFilter, type AllExceptionsFilterOptions, GuardAnswered } from './http/all-exceptions.filter.js';
export { issuesToDetails, isValidationError, parseOrThrow, type RequestPart } from './http/zod-validation.js';
export { OperationValidationGuard, placeValidationGuardsLast } from './http/operation-validation.guard.js';
export { hostNameOf, LOOPBACK_HOSTS, publicBaseUrl, requestHost, type RequestOrigin } from './http/public-url.js';
export {
  cacheableDocument,
  type CacheableDocument,
  cacheableResponses,
  etagOf,
  ifNoneMatchHits,
  PUBLIC_DOCUMENT_CACHE_CONTROL,
  sendCacheable,
} from './http/cacheable-response.js';
export {
  DEFAULT_PAGE_LIMIT,
  invalidCursor,
  type ListPage,
  listPageSchema,
  type ListQuery,
  listQuerySchema,
  MAX_PAGE_LIMIT,
  toListPage,
} from './http/pagination.js';
export { findPage } from './http/find-page.js';
export { prefersJson } from './http/prefers-json.js';
export {
  emptyBody,
  getOperation,
  OPERATION_METADATA,
  type OperationResponse,
  type OperationSpec,
  type SecurityScheme,
} from './openapi/operation.metadata.js';
export { Operation } from './openapi/operation.decorator.js';
export { type JsonSchema, SchemaCollector } from './openapi/schema-collector.js';
export {
  buildOpenApiDocument,
  findNonStrictObjects,
  type OpenApiDocument,
  type OpenApiInfo,
  operationLookup,
  type OperationRef,
  type OperationRoute,
  toOpenApiPath,
} from './openapi/openapi-document.js';
export { checkOpenApiDocument } from './openapi/openapi-structure.js';
export { OPENAPI_INFO, OpenApiService } from './openapi/openapi.service.js';
export { DocsController } from './openapi/docs.controller.js';
export { OpenApiModule } from './openapi/openapi.module.js';
export { LoggingModule } from './logging/logging.module.js';
export {
  AppLogger,
  createLogger,
  LOG_SERIALIZERS,
  type LoggingOptions,
  PINO_LOGGER,
  redactHeaders,
  redactUrl,
} from './logging/logger.js';
export {
  clientRequestId,
  fastifyLoggingOptions,
  requestId,
  RequestLogController,
  requestLogLevel,
} from './logging/request-logging.js';
// Server-rendered pages: escaped templates, cookies and CSRF tokens (ADR 0065).
export { escapeHtml, html, SafeHtml, trustedHtml } from './browser/html.js';
export {
  browserCookieName,
  browserCookiePolicy,
  type BrowserCookiePolicy,
  cookiesOf,
  CSRF_FIELD,
  csrfCookieName,
  csrfTokenFor,
  registerBrowserForms,
  renewCsrfSecret,
} from './browser/browser-forms.js';
// Request bodies and routing: an empty JSON body is no body; 405 with Allow.
export { acceptEmptyJsonBodies } from './http/json-body.js';
export { RouteMethods } from './http/route-methods.js';
