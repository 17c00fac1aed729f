import fc from 'fast-check';

/** A JSON Schema node of the served OpenAPI document (refs left in place). */
export type Schema = Record<string, any>;

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: Schema;
}

/** One operation of the served document, as the chaos scenarios need it. */
export interface Operation {
  method: string;
  /** The templated path, e.g. `/v1/repositories/{id}`. */
  path: string;
  operationId: string;
  surface: Surface;
  pathParams: Parameter[];
  queryParams: Parameter[];
  /** The JSON request body's schema (refs resolved at the top), or null. */
  body: Schema | null;
  bodyRequired: boolean;
}

/** `/v1` platform, `/api/v1` agent data, `/api/v1/workspace` the tenant workspace (its own key). */
export type Surface = 'platform' | 'agent' | 'workspace';

export const label = (op: Pick<Operation, 'method' | 'path'>): string => `${op.method} ${op.path}`;

export function surfaceOf(path: string): Surface | null {
  if (path.startsWith('/api/v1/workspace/') || path === '/api/v1/workspace') return 'workspace';
  if (path.startsWith('/api/v1/')) return 'agent';
  if (path.startsWith('/v1/')) return 'platform';
  return null;
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

/** Follows `$ref`s of the document. */
export class SchemaResolver {
  constructor(private readonly document: Schema) {}

  resolve(schema: Schema | undefined): Schema {
    let s = schema ?? {};
    for (let hops = 0; typeof s.$ref === 'string' && hops < 20; hops++) {
      const parts = (s.$ref as string).replace(/^#\//, '').split('/');
      s = parts.reduce<Schema>((node, part) => node?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], this.document);
    }
    return s ?? {};
  }
}

/** Every operation of the two surfaces, in document order; the others are returned apart. */
export function operationsOf(document: Schema): { operations: Operation[]; outside: string[] } {
  const refs = new SchemaResolver(document);
  const operations: Operation[] = [];
  const outside: string[] = [];
  for (const [path, item] of Object.entries<Schema>(document.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method] as Schema | undefined;
      if (!op) continue;
      const surface = surfaceOf(path);
      if (!surface) {
        outside.push(`${method.toUpperCase()} ${path}`);
        continue;
      }
      const params = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p: Schema) => refs.resolve(p));
      const asParam = (p: Schema): Parameter => ({
        name: p.name,
        in: p.in,
        required: p.required === true,
        schema: refs.resolve(p.schema),
      });
      const content = (op.requestBody?.content ?? {}) as Record<string, Schema>;
      operations.push({
        method: method.toUpperCase(),
        path,
        operationId: op.operationId ?? `${method} ${path}`,
        surface,
        pathParams: params.filter((p) => p.in === 'path').map(asParam),
        queryParams: params.filter((p) => p.in === 'query').map(asParam),
        body: content['application/json'] ? refs.resolve(content['application/json'].schema) : null,
        bodyRequired: op.requestBody?.required === true,
      });
    }
  }
  return { operations, outside };
}

/** A value by property name (and schema), so that references point at real resources; undefined: none. */
export type KnownValues = (name: string, schema: Schema) => unknown;

/**
 * A value the schema accepts (best effort: a pattern is sampled with fast-check's
 * stringMatching, seeded), preferring `known[name]`. Objects get their required properties only.
 */
export function exampleOf(
  refs: SchemaResolver,
  schemaIn: Schema | undefined,
  known: KnownValues = () => undefined,
  name = '',
  depth = 0,
): unknown {
  const schema = refs.resolve(schemaIn);
  const chosen = name ? known(name, schema) : undefined;
  if (chosen !== undefined) return chosen;
  if (depth > 8) return null;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  if (schema.default !== undefined && schema.type !== 'object') return schema.default;
  const branches = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (branches?.length) {
    const branch = branches.find((b) => refs.resolve(b).type !== 'null') ?? branches[0];
    return exampleOf(refs, branch, known, name, depth + 1);
  }
  if (Array.isArray(schema.allOf)) {
    const merged: Record<string, unknown> = {};
    for (const part of schema.allOf as Schema[]) {
      const value = exampleOf(refs, part, known, name, depth + 1);
      if (value && typeof value === 'object') Object.assign(merged, value);
    }
    return merged;
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const required = new Set<string>(schema.required ?? []);
      for (const [key, sub] of Object.entries<Schema>(schema.properties ?? {})) {
        if (required.has(key)) out[key] = exampleOf(refs, sub, known, key, depth + 1);
      }
      return out;
    }
    case 'array': {
      const count = Math.max(schema.minItems ?? 0, 1);
      return Array.from({ length: Math.min(count, 3) }, () => exampleOf(refs, schema.items, known, '', depth + 1));
    }
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1);
      const max = schema.maximum ?? Math.max(min, 10);
      return Math.min(Math.max(min, 1), max);
    }
    case 'boolean':
      return false;
    case 'null':
      return null;
    case 'string':
      return stringExample(schema, name);
    default:
      return schema.properties ? exampleOf(refs, { ...schema, type: 'object' }, known, name, depth) : 'chaos';
  }
}

function stringExample(schema: Schema, name: string): string {
  if (schema.format === 'email') return 'chaos@example.com';
  if (schema.format === 'date-time') return '2026-04-01T10:00:00Z';
  if (schema.format === 'uri' || /url$/.test(name)) return 'https://example.com/chaos';
  if (typeof schema.pattern === 'string') {
    try {
      const [sample] = fc.sample(fc.stringMatching(new RegExp(schema.pattern)), { seed: 17, numRuns: 1 });
      if (sample !== undefined) return sample;
    } catch {
      /* a pattern fast-check cannot sample: fall through */
    }
  }
  const min = schema.minLength ?? 1;
  const max = schema.maxLength ?? 64;
  return 'chaos'.padEnd(min, 'x').slice(0, Math.max(max, 1));
}

/** The leaf and object property paths of a schema (for "set this field to a bad value"). */
export function propertyPaths(
  refs: SchemaResolver,
  schemaIn: Schema | null,
  prefix: string[] = [],
  depth = 0,
): string[][] {
  const schema = refs.resolve(schemaIn ?? {});
  if (depth > 3) return [];
  const out: string[][] = [];
  const props = schema.properties as Record<string, Schema> | undefined;
  if (props) {
    for (const [key, sub] of Object.entries(props)) {
      out.push([...prefix, key]);
      out.push(...propertyPaths(refs, sub, [...prefix, key], depth + 1));
    }
  }
  for (const part of (schema.allOf ?? []) as Schema[]) out.push(...propertyPaths(refs, part, prefix, depth + 1));
  return out;
}
