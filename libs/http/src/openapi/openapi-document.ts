import { STATUS_CODES } from 'node:http';
import { isProblemPath } from '../http/error-response.js';
import type { OperationSpec } from './operation.metadata.js';
import { type JsonSchema, SchemaCollector } from './schema-collector.js';

/** One documented route: HTTP method, Nest path (`/v1/things/:id`) and its @Operation spec. */
export interface OperationRoute {
  method: string;
  path: string;
  spec: OperationSpec;
  /** `Controller_method`, the default operationId. */
  handlerName: string;
}

export interface OpenApiInfo {
  title: string;
  version: string;
  description?: string;
  /** Server URLs; default `/` (same origin as the document). */
  servers?: Array<{ url: string; description?: string }>;
  license?: { name: string; url?: string; identifier?: string };
  contact?: { name?: string; url?: string; email?: string };
  /** What each tag groups (the linters flag a tag without a description). */
  tags?: Record<string, string>;
}

export type OpenApiDocument = Record<string, unknown> & {
  openapi: string;
  paths: Record<string, Record<string, unknown>>;
  components: Record<string, Record<string, unknown>>;
};

const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'Every error body (DESIGN D5). Some errors add fields (details, retry_after, required_scope, ...).',
  properties: {
    error: { type: 'string', description: 'Short machine word, e.g. not_found.' },
    message: { type: 'string', description: 'Human-readable explanation.' },
    code: { type: 'string', description: 'Stable upper-case code, e.g. ROUTE_NOT_FOUND.' },
    details: {
      type: 'array',
      description: 'Validation problems, one per field.',
      items: {
        type: 'object',
        properties: { path: { type: 'string' }, message: { type: 'string' } },
        required: ['path', 'message'],
      },
    },
  },
  required: ['error', 'message', 'code'],
};

const PROBLEM_SCHEMA: JsonSchema = {
  description: 'RFC 9457 problem details with the fields of Error (agent data surface, /api/v1).',
  allOf: [
    { $ref: '#/components/schemas/Error' },
    {
      type: 'object',
      properties: {
        type: { type: 'string', format: 'uri-reference' },
        title: { type: 'string' },
        status: { type: 'integer' },
        next_actions: {
          type: 'array',
          description:
            'What to do next, first the most useful; on every 4xx. Each is a request to make: method and absolute url.',
          items: {
            type: 'object',
            properties: {
              action: { type: 'string', description: 'Machine word, e.g. get_api_key, read_operation_docs.' },
              method: { type: 'string', description: 'HTTP method of the request to make.' },
              url: { type: 'string', format: 'uri' },
              description: { type: 'string' },
              operation_id: { type: 'string', description: 'The operation the documentation link points at.' },
              retry_after_seconds: { type: 'integer', description: 'Wait this long before the request (429).' },
            },
            required: ['action', 'method', 'url'],
          },
        },
      },
      required: ['type', 'title', 'status'],
    },
  ],
};

/** The documented operation a request went to. */
export interface OperationRef {
  operationId: string;
  /** Upper case, e.g. `PATCH`. */
  method: string;
  /** The OpenAPI path template, e.g. `/api/v1/companies/{id}`. */
  path: string;
}

/**
 * A lookup from a request's method and concrete path to its documented operation. A literal
 * segment wins over a parameter (`/keys/active` before `/keys/{id}`). Built once per document.
 */
export function operationLookup(
  doc: Pick<OpenApiDocument, 'paths'>,
): (method: string, path: string) => OperationRef | undefined {
  const byMethod = new Map<string, Array<{ segments: string[]; ref: OperationRef }>>();
  for (const [template, operations] of Object.entries(doc.paths)) {
    const segments = template.split('/');
    for (const [method, operation] of Object.entries(operations)) {
      const operationId = (operation as { operationId?: unknown } | null)?.operationId;
      if (typeof operationId !== 'string') continue;
      const ref = { operationId, method: method.toUpperCase(), path: template };
      const list = byMethod.get(ref.method) ?? [];
      list.push({ segments, ref });
      byMethod.set(ref.method, list);
    }
  }
  const isParam = (s: string) => s.startsWith('{') && s.endsWith('}');
  // Literal segments first, position by position.
  const rank = (segments: string[]) => segments.map((s) => (isParam(s) ? '1' : '0')).join('');
  for (const list of byMethod.values()) list.sort((a, b) => rank(a.segments).localeCompare(rank(b.segments)));
  return (method, path) => {
    const segments = (path.length > 1 ? path.replace(/\/+$/, '') : path).split('/');
    const candidates = byMethod.get(method.toUpperCase()) ?? [];
    return candidates.find(
      (c) =>
        c.segments.length === segments.length &&
        c.segments.every((s, i) => (isParam(s) ? segments[i] !== '' : s === segments[i])),
    )?.ref;
  };
}

/** Nest route path to an OpenAPI path template: `/things/:id` → `/things/{id}`. */
export function toOpenApiPath(path: string): string {
  const clean = `/${path}`.replace(/\/+/g, '/').replace(/(.)\/$/, '$1');
  return clean.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

function pathParamNames(template: string): string[] {
  return [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
}

function objectParameters(schema: JsonSchema, location: 'query' | 'path'): Array<Record<string, unknown>> {
  const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(props).map(([name, prop]) => {
    const { description, ...rest } = prop;
    return {
      name,
      in: location,
      required: location === 'path' ? true : required.has(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema: rest,
    };
  });
}

/** Builds the OpenAPI 3.1 document from the documented routes. Deterministic for a given input. */
export function buildOpenApiDocument(info: OpenApiInfo, routes: OperationRoute[]): OpenApiDocument {
  const schemas = new SchemaCollector();
  const paths: Record<string, Record<string, unknown>> = {};
  const tags = new Set<string>();
  const sorted = [...routes].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
  const seenIds = new Set<string>();
  /** The shared answers referenced: only those go into components. */
  const usedCommon = new Set<string>();

  for (const route of sorted) {
    const { spec } = route;
    if (spec.hidden) continue;
    const template = toOpenApiPath(route.path);
    const method = route.method.toLowerCase();
    const operationId = spec.operationId ?? route.handlerName;
    if (seenIds.has(operationId))
      throw new Error(`OpenAPI: duplicate operationId ${operationId} (${route.method} ${route.path})`);
    seenIds.add(operationId);
    const problem = isProblemPath(template);
    const errorRef = { $ref: problem ? '#/components/responses/Problem' : '#/components/responses/Error' };

    const parameters: Array<Record<string, unknown>> = [];
    const documented = new Set<string>();
    if (spec.params) {
      for (const p of objectParameters(schemas.convert(spec.params, 'input', `${operationId}Params`), 'path')) {
        parameters.push(p);
        documented.add(p.name as string);
      }
    }
    for (const name of pathParamNames(template)) {
      if (!documented.has(name)) parameters.push({ name, in: 'path', required: true, schema: { type: 'string' } });
    }
    if (spec.query)
      parameters.push(...objectParameters(schemas.convert(spec.query, 'input', `${operationId}Query`), 'query'));

    const responses: Record<string, unknown> = {};
    for (const [status, response] of Object.entries(spec.responses)) {
      const entry: Record<string, unknown> = { description: response.description };
      if (response.contentTypes) {
        entry.content = Object.fromEntries(
          Object.entries(response.contentTypes).map(([type, schema], i) => [
            type,
            { schema: schemas.convert(schema, 'output', `${operationId}Response${status}${i || ''}`) },
          ]),
        );
      } else if (response.schema) {
        entry.content = {
          [response.contentType ?? 'application/json']: {
            schema: schemas.convert(response.schema, 'output', `${operationId}Response${status}`),
          },
        };
      } else if (response.contentType) {
        // A body of that type without a JSON schema (an HTML page, a text document).
        entry.content = { [response.contentType]: { schema: { type: 'string' } } };
      } else if (Number(status) >= 400) {
        entry.content = errorRef.$ref === '#/components/responses/Problem' ? PROBLEM_CONTENT : ERROR_CONTENT;
      }
      // Any error can also come from the shared machinery before the route runs (the error
      // filter): its body is then the surface's error body, beside what the route documents.
      const errorContent = problem ? PROBLEM_CONTENT : ERROR_CONTENT;
      const errorType = Object.keys(errorContent)[0]!;
      if (Number(status) >= 400 && entry.content && !(entry.content as Record<string, unknown>)[errorType]) {
        entry.content = { ...(entry.content as Record<string, unknown>), ...errorContent };
      }
      if (response.headers) {
        entry.headers = Object.fromEntries(
          Object.entries(response.headers).map(([h, v]) => [
            h,
            { description: v.description, schema: v.schema ?? { type: 'string' } },
          ]),
        );
      }
      responses[String(status)] = entry;
    }
    // The answers the shared machinery gives, so every operation lists what it can answer:
    // validation (400), a credential that does not work (401), a spent rate limit (429), a body
    // over the limit (413) or of another media type (415).
    const common = (status: number, name: string) => {
      if (responses[status]) return;
      const component = problem ? `Problem${name}` : name;
      responses[status] = { $ref: `#/components/responses/${component}` };
      usedCommon.add(component);
    };
    // Fastify parses a body on every method but GET and HEAD, whether the operation takes one.
    const parsesBody = !spec.ownBodyParser && !['GET', 'HEAD'].includes(route.method.toUpperCase());
    if (spec.body || spec.query || spec.params || parsesBody) common(400, 'ValidationFailed');
    const secured = spec.security?.some((s) => typeof s === 'string' || Object.keys(s).length > 0);
    if (secured) {
      common(401, 'Unauthorized');
      common(429, 'RateLimited');
    }
    if (parsesBody) {
      common(413, 'PayloadTooLarge');
      common(415, 'UnsupportedMediaType');
    }
    if (!responses.default) responses.default = errorRef;

    const operation: Record<string, unknown> = {
      operationId,
      summary: spec.summary,
      ...(spec.description ? { description: spec.description } : {}),
      ...(spec.tags?.length ? { tags: spec.tags } : {}),
      ...(spec.deprecated ? { deprecated: true } : {}),
      ...(parameters.length ? { parameters } : {}),
      ...(spec.body
        ? {
            requestBody: {
              required: !spec.body.safeParse(undefined).success,
              content: { 'application/json': { schema: schemas.convert(spec.body, 'input', `${operationId}Body`) } },
            },
          }
        : spec.documentedBody
          ? {
              requestBody: {
                ...(spec.documentedBody.description ? { description: spec.documentedBody.description } : {}),
                required: spec.documentedBody.required,
                content: Object.fromEntries(
                  Object.entries(spec.documentedBody.content).map(([type, schema], i) => [
                    type,
                    { schema: schemas.convert(schema, 'input', `${operationId}Body${i || ''}`) },
                  ]),
                ),
              },
            }
          : {}),
      responses,
      // Every operation says who may call it: public ones with an empty list.
      security: (spec.security ?? []).map((s) => (typeof s === 'string' ? { [s]: [] } : s)),
    };
    for (const t of spec.tags ?? []) tags.add(t);
    (paths[template] ??= {})[method] = operation;
  }

  return {
    openapi: '3.1.1',
    info: {
      title: info.title,
      version: info.version,
      ...(info.description ? { description: info.description } : {}),
      ...(info.contact ? { contact: info.contact } : {}),
      ...(info.license ? { license: info.license } : {}),
    },
    servers: info.servers?.length ? info.servers : [{ url: '/' }],
    ...(tags.size
      ? {
          tags: [...tags]
            .sort()
            .map((name) => ({ name, ...(info.tags?.[name] ? { description: info.tags[name] } : {}) })),
        }
      : {}),
    paths,
    components: {
      schemas: { ...schemas.components(), Error: ERROR_SCHEMA, Problem: PROBLEM_SCHEMA },
      responses: {
        Error: { description: 'Error (DESIGN D5 body).', content: ERROR_CONTENT },
        Problem: { description: 'Error as RFC 9457 problem details.', content: PROBLEM_CONTENT },
        ValidationFailed: {
          description: `${STATUS_CODES[400]}: VALIDATION_FAILED with details, MALFORMED_JSON, ...`,
          content: ERROR_CONTENT,
        },
        ProblemValidationFailed: {
          description: `${STATUS_CODES[400]}: VALIDATION_FAILED with details, MALFORMED_JSON, ...`,
          content: PROBLEM_CONTENT,
        },
        ...Object.fromEntries(
          Object.entries({ ...commonResponses(''), ...commonResponses('Problem') }).filter(([name]) =>
            usedCommon.has(name),
          ),
        ),
      },
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'Authorization: Bearer <API key or OAuth access token>.',
        },
        apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'Agent data API key.' },
        clientBasic: {
          type: 'http',
          scheme: 'basic',
          description: "An OAuth client's client_id and client_secret (client_secret_basic).",
        },
      },
    },
  };
}

const ERROR_CONTENT = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };
const PROBLEM_CONTENT = { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } };

/** The shared answers (`Unauthorized`, ...), as D5 errors or (prefix `Problem`) problem documents. */
function commonResponses(prefix: '' | 'Problem'): Record<string, unknown> {
  const content = prefix ? PROBLEM_CONTENT : ERROR_CONTENT;
  const integer = { schema: { type: 'integer' } };
  return {
    [`${prefix}Unauthorized`]: {
      description: `${STATUS_CODES[401]}: the credential is missing or does not work (MISSING_AUTH, INVALID_KEY, REVOKED_KEY, KEY_WRONG_SURFACE, KEY_WRONG_ENVIRONMENT, INVALID_TOKEN, ...).`,
      headers: { 'WWW-Authenticate': { description: 'Bearer challenge (RFC 6750).', schema: { type: 'string' } } },
      content,
    },
    [`${prefix}RateLimited`]: {
      description: `${STATUS_CODES[429]}: RATE_LIMIT_EXCEEDED, the caller's budget is spent; retry_after in the body.`,
      headers: {
        'Retry-After': { description: 'Seconds until the window resets.', ...integer },
        'X-RateLimit-Limit': { description: 'Requests allowed in the window.', ...integer },
        'X-RateLimit-Remaining': { description: 'Requests left in the window.', ...integer },
        'X-RateLimit-Reset': { description: 'When the window resets, Unix epoch seconds.', ...integer },
      },
      content,
    },
    [`${prefix}PayloadTooLarge`]: { description: `${STATUS_CODES[413]}: the body is over 1 MiB.`, content },
    [`${prefix}UnsupportedMediaType`]: {
      description: `${STATUS_CODES[415]}: the body is not application/json.`,
      content,
    },
  };
}

/**
 * Object schemas in the document that accept unknown fields: a request schema nested with
 * z.object instead of z.strictObject. Output schemas always carry additionalProperties.
 */
export function findNonStrictObjects(doc: unknown): string[] {
  const found: string[] = [];
  const walk = (node: unknown, at: string): void => {
    if (Array.isArray(node)) node.forEach((n, i) => walk(n, `${at}/${i}`));
    else if (node && typeof node === 'object') {
      const o = node as Record<string, unknown>;
      if (
        o.type === 'object' &&
        o.properties &&
        !('additionalProperties' in o) &&
        !at.includes('/components/schemas/Error') &&
        !at.includes('/components/schemas/Problem')
      ) {
        found.push(at);
      }
      for (const [k, v] of Object.entries(o)) walk(v, `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    }
  };
  walk(doc, '#');
  return found;
}
