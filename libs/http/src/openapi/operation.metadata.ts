import type { z } from 'zod';

/** Security schemes of components.securitySchemes: `bearer` (Authorization) and `apiKey` (x-api-key). */
export type SecurityScheme = 'bearer' | 'apiKey';

export interface OperationResponse {
  description: string;
  /** Response body schema (JSON); none for empty bodies. */
  schema?: z.ZodType;
  /** Defaults to application/json. */
  contentType?: string;
  headers?: Record<string, { description: string; schema?: Record<string, unknown> }>;
}

export interface OperationSpec {
  summary: string;
  description?: string;
  tags?: string[];
  /** Stable id; defaults to `Controller_method`. */
  operationId?: string;
  /** Request body (JSON). The top level becomes strict: unknown fields are rejected. */
  body?: z.ZodType;
  /** Query string; values arrive as strings, so use z.coerce for numbers. Strict too. */
  query?: z.ZodType;
  /** Path parameters by name. */
  params?: z.ZodType;
  /** Documented responses by status code ("200", "201", ...). */
  responses: Record<number | string, OperationResponse>;
  /**
   * Accepted credentials, any one of them (OpenAPI security alternatives). Omit for public
   * routes. A string is a scheme with no scopes; an object is a full requirement.
   */
  security?: Array<SecurityScheme | Record<string, string[]>>;
  /** Leave it out of the published document (it is still validated). */
  hidden?: boolean;
  deprecated?: boolean;
}

export const OPERATION_METADATA = 'svc:operation';

/** The operation spec of a handler, if it has one. */
export function getOperation(handler: (...args: never[]) => unknown): OperationSpec | undefined {
  return Reflect.getMetadata(OPERATION_METADATA, handler) as OperationSpec | undefined;
}
