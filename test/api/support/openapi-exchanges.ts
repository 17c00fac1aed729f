import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { operationLookup, toOpenApiPath } from '#http';

/**
 * Response validation on the served OpenAPI document (ADR 0079): every request a test makes is
 * checked against the operation the document says answered it. Ajv (JSON Schema 2020-12, the
 * dialect of OpenAPI 3.1) compiles each schema where it stands in the document, so `$ref`s
 * resolve as a client's generator would resolve them.
 */
export interface Exchange {
  method: string;
  /** The concrete path (for the message). */
  path: string;
  /** The route template that answered (Fastify's `routeOptions.url`, Nest `:id` form); found from `path` when absent. */
  route?: string;
  status: number;
  /** The response's Content-Type header. */
  contentType?: string;
  /** The response body; undefined when it was not seen (a route that writes the raw response). */
  body?: string | Buffer;
  requestContentType?: string;
  /** The parsed request body, when there was one. */
  requestBody?: unknown;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const pointer = (...keys: string[]) => keys.map((k) => k.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
const mediaOf = (contentType: string | undefined) => contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
const isJson = (media: string) => media === 'application/json' || media.endsWith('+json');

const cache = new Map<string, OpenApiExchangeValidator>();

export class OpenApiExchangeValidator {
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly lookup: ReturnType<typeof operationLookup>;

  private constructor(private readonly doc: { paths: Record<string, Obj> } & Obj) {
    this.ajv = new Ajv2020({
      strict: false,
      allErrors: true,
      validateSchema: false,
      validateFormats: true,
      // Cents as dollars: 12.34 is a multiple of 0.01, whatever binary floating point says.
      multipleOfPrecision: 9,
      // Compiling is most of this check's cost (a schema per operation and status a test meets,
      // each validated a few times); ajv's optimising pass cuts a third of it, and only tidies
      // the generated code: what it accepts and the errors it reports stay the same.
      code: { optimize: false },
    });
    addFormats.default(this.ajv);
    this.ajv.addSchema(doc as object, 'openapi');
    this.lookup = operationLookup(doc);
  }

  /** One validator per document (a test process starts many apps serving the same document). */
  static for(doc: object): OpenApiExchangeValidator {
    const key = JSON.stringify(doc);
    let found = cache.get(key);
    if (!found) cache.set(key, (found = new OpenApiExchangeValidator(JSON.parse(key) as never)));
    return found;
  }

  /** What in the exchange disagrees with the document; empty when it agrees or the route is undocumented. */
  check(exchange: Exchange): string[] {
    const method = (exchange.method === 'HEAD' ? 'GET' : exchange.method).toLowerCase();
    const template = exchange.route
      ? toOpenApiPath(exchange.route)
      : this.lookup(method, exchange.path.split('?')[0] ?? '/')?.path;
    if (!template) return [];
    const operation = this.doc.paths[template]?.[method];
    if (!isObj(operation)) return [];
    const opAt = `#/${pointer('paths', template, method)}`;
    const shown = exchange.path.length > 120 ? `${exchange.path.slice(0, 117)}...` : exchange.path;
    const name = `${String(operation.operationId)} (${exchange.method} ${shown} → ${exchange.status})`;
    const problems: string[] = [];
    const responses = isObj(operation.responses) ? operation.responses : {};
    const status = String(exchange.status);
    // 5xx may fall to `default`; every other status the route answers must be listed.
    const key = [status, `${status[0]}XX`, ...(exchange.status >= 500 ? ['default'] : [])].find(
      (k) => responses[k] !== undefined,
    );
    if (!key) return [`${name}: status ${status} is not documented (${opAt}/responses)`];
    let responseAt = `${opAt}/responses/${key}`;
    let response = responses[key];
    if (isObj(response) && typeof response.$ref === 'string') {
      responseAt = response.$ref;
      response = this.resolve(response.$ref);
    }
    const content = isObj(response) && isObj(response.content) ? response.content : undefined;
    const media = mediaOf(exchange.contentType);
    const empty = exchange.body !== undefined && exchange.body.length === 0;
    const bodyless = exchange.method === 'HEAD' || exchange.status === 204 || exchange.status === 304;

    if (!bodyless && exchange.body !== undefined) {
      if (!content && !empty) problems.push(`${name}: a ${media || 'body'} body where ${responseAt} documents none`);
      if (content && empty && Object.keys(content).some(isJson))
        problems.push(`${name}: no body where ${responseAt} documents ${Object.keys(content).join(', ')}`);
    }
    if (content && media && !bodyless && !empty) {
      const documented = Object.keys(content).find(
        (t) => t === media || (t.endsWith('/*') && media.startsWith(t.slice(0, -1))),
      );
      if (!documented) {
        problems.push(
          `${name}: Content-Type ${media} is not one of ${Object.keys(content).join(', ')} (${responseAt}/content)`,
        );
      } else if (isJson(media) && exchange.body !== undefined) {
        const schemaAt = `${responseAt}/${pointer('content', documented, 'schema')}`;
        const media = content[documented];
        if (isObj(media) && media.schema !== undefined) {
          let parsed: unknown;
          try {
            parsed = JSON.parse(exchange.body.toString());
          } catch {
            problems.push(`${name}: the body is not JSON (${schemaAt})`);
          }
          if (parsed !== undefined) problems.push(...this.validate(schemaAt, parsed, `${name}: response`));
        }
      }
    }

    // A request the document calls invalid must not be accepted. `{}` counts as no body (clients
    // that always send JSON send it; the routes treat it as none).
    const sentBody =
      exchange.requestBody !== undefined &&
      exchange.requestBody !== null &&
      !(isObj(exchange.requestBody) && Object.keys(exchange.requestBody).length === 0 && !isObj(operation.requestBody));
    if (exchange.status < 300 && isJson(mediaOf(exchange.requestContentType)) && sentBody) {
      const body = isObj(operation.requestBody) ? operation.requestBody : undefined;
      const requestContent = body && isObj(body.content) ? body.content : undefined;
      const requestMedia = requestContent
        ? Object.keys(requestContent).find((t) => t === mediaOf(exchange.requestContentType))
        : undefined;
      if (!requestContent)
        problems.push(
          `${name}: accepted a request body where ${opAt} documents none: ${JSON.stringify(exchange.requestBody).slice(0, 80)}`,
        );
      else if (!requestMedia)
        problems.push(`${name}: accepted a ${mediaOf(exchange.requestContentType)} request body (${opAt}/requestBody)`);
      else
        problems.push(
          ...this.validate(
            `${opAt}/${pointer('requestBody', 'content', requestMedia, 'schema')}`,
            exchange.requestBody,
            `${name}: accepted request`,
          ),
        );
    }
    return problems;
  }

  private validate(schemaAt: string, value: unknown, prefix: string): string[] {
    let validate = this.compiled.get(schemaAt);
    if (!validate) {
      const ref = `openapi#${schemaAt.slice(1).split('/').map(encodeURIComponent).join('/')}`;
      validate = this.ajv.compile({ $ref: ref });
      this.compiled.set(schemaAt, validate);
    }
    if (validate(value)) return [];
    return (validate.errors ?? []).slice(0, 5).map((e: ErrorObject) => {
      // A JSON pointer into the served document (ajv names a $ref's target `openapi#/…`).
      const at = decodeURIComponent(
        e.schemaPath.startsWith('#') ? `${schemaAt}${e.schemaPath.slice(1)}` : e.schemaPath,
      ).replace(/^openapi#/, '#');
      return `${prefix} ${e.instancePath || '(root)'} ${e.message ?? 'is invalid'} ${
        e.params && Object.keys(e.params).length ? JSON.stringify(e.params) : ''
      } (schema ${at})`;
    });
  }

  private resolve(ref: string): unknown {
    let node: unknown = this.doc;
    for (const raw of ref.replace(/^#\//, '').split('/')) {
      node = isObj(node) ? node[raw.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
    }
    return node;
  }
}
