/**
 * A structural check of an OpenAPI 3.1 document, without a validator package: the version,
 * the shape of every path item, operation, parameter, request body and response, unique
 * operation ids, declared path parameters, known security schemes, and every `$ref` resolving
 * inside the document. Returns the problems found (empty when the document is well formed).
 */
const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
const PATH_ITEM_KEYS = new Set([...METHODS, '$ref', 'summary', 'description', 'servers', 'parameters']);
const OPERATION_KEYS = new Set([
  'tags',
  'summary',
  'description',
  'externalDocs',
  'operationId',
  'parameters',
  'requestBody',
  'responses',
  'callbacks',
  'deprecated',
  'security',
  'servers',
]);
const PARAMETER_IN = new Set(['query', 'header', 'path', 'cookie']);
const SCHEMA_TYPES = new Set(['null', 'boolean', 'object', 'array', 'number', 'string', 'integer']);
const SECURITY_TYPES = new Set(['apiKey', 'http', 'mutualTLS', 'oauth2', 'openIdConnect']);

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function resolvePointer(doc: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  if (ref === '#') return doc;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObj(node) && !Array.isArray(node)) return undefined;
    node = (node as Obj)[key];
    if (node === undefined) return undefined;
  }
  return node;
}

export function checkOpenApiDocument(doc: unknown): string[] {
  const problems: string[] = [];
  const fail = (at: string, msg: string) => problems.push(`${at}: ${msg}`);
  if (!isObj(doc)) return ['#: document is not an object'];
  if (typeof doc.openapi !== 'string' || !/^3\.1\.\d+$/.test(doc.openapi))
    fail('#/openapi', `expected 3.1.x, got ${String(doc.openapi)}`);
  const info = doc.info;
  if (!isObj(info) || typeof info.title !== 'string' || typeof info.version !== 'string')
    fail('#/info', 'needs title and version strings');
  if (!isObj(doc.paths) && !isObj(doc.webhooks) && !isObj(doc.components))
    fail('#', 'needs paths, webhooks or components');
  if (doc.servers !== undefined) {
    if (!Array.isArray(doc.servers)) fail('#/servers', 'not an array');
    else
      doc.servers.forEach((s, i) => {
        if (!isObj(s) || typeof s.url !== 'string') fail(`#/servers/${i}`, 'needs url');
      });
  }

  const components = isObj(doc.components) ? doc.components : {};
  const schemes = isObj(components.securitySchemes) ? components.securitySchemes : {};
  for (const [name, scheme] of Object.entries(schemes)) {
    const at = `#/components/securitySchemes/${name}`;
    if (!isObj(scheme) || !SECURITY_TYPES.has(String(scheme.type))) {
      fail(at, 'invalid type');
      continue;
    }
    if (
      scheme.type === 'apiKey' &&
      (typeof scheme.name !== 'string' || !['query', 'header', 'cookie'].includes(String(scheme.in)))
    )
      fail(at, 'apiKey needs name and in');
    if (scheme.type === 'http' && typeof scheme.scheme !== 'string') fail(at, 'http needs scheme');
  }
  for (const [name, schema] of Object.entries(isObj(components.schemas) ? components.schemas : {})) {
    checkSchema(schema, `#/components/schemas/${name}`, fail);
  }

  const operationIds = new Set<string>();
  for (const [path, item] of Object.entries(isObj(doc.paths) ? doc.paths : {})) {
    const at = `#/paths/${path.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (!path.startsWith('/')) fail(at, 'path must start with /');
    if (!isObj(item)) {
      fail(at, 'path item is not an object');
      continue;
    }
    for (const key of Object.keys(item))
      if (!PATH_ITEM_KEYS.has(key) && !key.startsWith('x-')) fail(at, `unknown path item field ${key}`);
    const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
    const itemParams = Array.isArray(item.parameters) ? item.parameters : [];
    for (const method of Object.keys(item).filter((k) => METHODS.has(k))) {
      const op = item[method];
      const oat = `${at}/${method}`;
      if (!isObj(op)) {
        fail(oat, 'operation is not an object');
        continue;
      }
      for (const key of Object.keys(op))
        if (!OPERATION_KEYS.has(key) && !key.startsWith('x-')) fail(oat, `unknown operation field ${key}`);
      if (op.operationId !== undefined) {
        if (typeof op.operationId !== 'string') fail(oat, 'operationId not a string');
        else if (operationIds.has(op.operationId)) fail(oat, `duplicate operationId ${op.operationId}`);
        else operationIds.add(op.operationId);
      }
      const params = [...itemParams, ...(Array.isArray(op.parameters) ? op.parameters : [])].map((p) =>
        isObj(p) && typeof p.$ref === 'string' ? resolvePointer(doc, p.$ref) : p,
      );
      const seen = new Set<string>();
      params.forEach((p, i) => {
        const pat = `${oat}/parameters/${i}`;
        if (!isObj(p) || typeof p.name !== 'string' || !PARAMETER_IN.has(String(p.in))) {
          fail(pat, 'needs name and a valid in');
          return;
        }
        const key = `${p.in}:${p.name}`;
        if (seen.has(key)) fail(pat, `duplicate parameter ${key}`);
        seen.add(key);
        if (p.in === 'path' && p.required !== true) fail(pat, 'path parameters must be required');
        if (p.in === 'path' && !templated.includes(p.name)) fail(pat, `path parameter ${p.name} is not in the path`);
        if ((p.schema === undefined) === (p.content === undefined)) fail(pat, 'needs exactly one of schema or content');
        if (p.schema !== undefined) checkSchema(p.schema, `${pat}/schema`, fail);
      });
      for (const name of templated) if (!seen.has(`path:${name}`)) fail(oat, `path parameter ${name} is not declared`);
      if (op.requestBody !== undefined) {
        const body =
          isObj(op.requestBody) && typeof op.requestBody.$ref === 'string'
            ? resolvePointer(doc, op.requestBody.$ref)
            : op.requestBody;
        if (!isObj(body) || !isObj(body.content)) fail(`${oat}/requestBody`, 'needs content');
        else checkContent(body.content, `${oat}/requestBody/content`, fail);
      }
      if (!isObj(op.responses) || Object.keys(op.responses).length === 0) {
        fail(oat, 'needs at least one response');
        continue;
      }
      for (const [code, response] of Object.entries(op.responses)) {
        const rat = `${oat}/responses/${code}`;
        if (code !== 'default' && !/^[1-5](\d\d|XX)$/.test(code)) fail(rat, 'invalid status code');
        const r = isObj(response) && typeof response.$ref === 'string' ? resolvePointer(doc, response.$ref) : response;
        if (!isObj(r) || typeof r.description !== 'string') {
          fail(rat, 'needs a description');
          continue;
        }
        if (r.content !== undefined) checkContent(r.content, `${rat}/content`, fail);
      }
      if (op.security !== undefined) {
        if (!Array.isArray(op.security)) fail(`${oat}/security`, 'not an array');
        else
          for (const req of op.security) {
            if (!isObj(req)) {
              fail(`${oat}/security`, 'requirement not an object');
              continue;
            }
            for (const [name, scopes] of Object.entries(req)) {
              if (!(name in schemes)) fail(`${oat}/security`, `unknown security scheme ${name}`);
              if (!Array.isArray(scopes)) fail(`${oat}/security`, `scopes of ${name} not an array`);
            }
          }
      }
    }
  }

  // Every $ref anywhere resolves inside the document.
  const walk = (node: unknown, at: string): void => {
    if (Array.isArray(node)) node.forEach((n, i) => walk(n, `${at}/${i}`));
    else if (isObj(node)) {
      for (const [k, v] of Object.entries(node)) {
        if (k === '$ref' && typeof v === 'string' && resolvePointer(doc, v) === undefined)
          fail(at, `unresolved $ref ${v}`);
        walk(v, `${at}/${k}`);
      }
    }
  };
  walk(doc, '#');
  return problems;
}

function checkContent(content: unknown, at: string, fail: (at: string, msg: string) => void): void {
  if (!isObj(content)) return fail(at, 'content is not an object');
  for (const [type, media] of Object.entries(content)) {
    if (!/^[\w.+*-]+\/[\w.+*-]+/.test(type)) fail(at, `invalid media type ${type}`);
    if (!isObj(media)) fail(`${at}/${type}`, 'media type object is not an object');
    else if (media.schema !== undefined) checkSchema(media.schema, `${at}/${type}/schema`, fail);
  }
}

/** JSON Schema 2020-12 sanity: a schema is an object or a boolean, with valid keyword types. */
function checkSchema(schema: unknown, at: string, fail: (at: string, msg: string) => void): void {
  if (typeof schema === 'boolean') return;
  if (!isObj(schema)) return fail(at, 'schema is not an object or boolean');
  const types = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
  for (const t of types) if (!SCHEMA_TYPES.has(String(t))) fail(at, `invalid type ${String(t)}`);
  if (
    schema.required !== undefined &&
    (!Array.isArray(schema.required) || schema.required.some((r) => typeof r !== 'string'))
  )
    fail(at, 'required must be an array of strings');
  if (schema.nullable !== undefined) fail(at, 'nullable is OpenAPI 3.0; use type: [..., "null"] in 3.1');
  if (isObj(schema.properties))
    for (const [k, v] of Object.entries(schema.properties)) checkSchema(v, `${at}/properties/${k}`, fail);
  else if (schema.properties !== undefined) fail(at, 'properties must be an object');
  if (schema.items !== undefined) checkSchema(schema.items, `${at}/items`, fail);
  if (schema.additionalProperties !== undefined)
    checkSchema(schema.additionalProperties, `${at}/additionalProperties`, fail);
  for (const key of ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const) {
    const list = schema[key];
    if (list === undefined) continue;
    if (!Array.isArray(list) || list.length === 0) fail(at, `${key} must be a non-empty array`);
    else list.forEach((s, i) => checkSchema(s, `${at}/${key}/${i}`, fail));
  }
}
