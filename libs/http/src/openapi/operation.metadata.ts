import { z } from 'zod';

/**
 * Security schemes of components.securitySchemes: `bearer` (Authorization), `apiKey`
 * (x-api-key) and `clientBasic` (an OAuth client's id and secret, HTTP Basic).
 */
export type SecurityScheme = 'bearer' | 'apiKey' | 'clientBasic';

export interface OperationResponse {
  description: string;
  /** Response body schema (JSON); none for empty bodies. */
  schema?: z.ZodType;
  /** Defaults to application/json. */
  contentType?: string;
  /** A body of several media types, the schema of each (instead of schema and contentType). */
  contentTypes?: Record<string, z.ZodType>;
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
  /**
   * A request body that is documented only: the route reads it itself (the MCP SDK parses
   * JSON-RPC, the Stripe webhook checks a signature over the bytes, oidc-provider parses forms).
   * Schemas by media type.
   */
  documentedBody?: { description?: string; required: boolean; content: Record<string, z.ZodType> };
  /**
   * The route reads the request stream itself (oidc-provider's routes): the shared answers to a
   * body (400 malformed JSON, 413, 415) are not given there.
   */
  ownBodyParser?: boolean;
  /** Query string; values arrive as strings, so use z.coerce for numbers. Strict too. */
  query?: z.ZodType;
  /** Path parameters by name. */
  params?: z.ZodType;
  /** Documented responses by status code ("200", "201", ...). */
  responses: Record<number | string, OperationResponse>;
  /**
   * Accepted credentials, any one of them (OpenAPI security alternatives). Omit for public
   * routes (documented as `security: []`); add `{}` when the credential is optional. A string
   * is a scheme with no scopes; an object is a full requirement. With any credential the
   * operation is documented with 401 and 429 (a key's rate limit) unless it lists its own.
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

/**
 * The body of a POST that takes nothing: none, or `{}` (clients that always send JSON); any
 * field in it is refused like an unknown field anywhere else.
 */
export const emptyBody = z.strictObject({}).optional().describe('Nothing, or an empty object.');
