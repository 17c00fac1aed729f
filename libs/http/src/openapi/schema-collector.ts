import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

/**
 * Converts zod schemas to OpenAPI 3.1 Schema Objects (JSON Schema 2020-12) with zod 4's own
 * converter, and hoists named schemas (`.meta({ id })`) into components.schemas so every
 * `$ref` points into the document. Request schemas use the input side (before defaults and
 * coercion), responses the output side.
 */
export class SchemaCollector {
  private readonly named = new Map<string, JsonSchema>();

  convert(schema: z.ZodType, io: 'input' | 'output', nameHint: string): JsonSchema {
    let json = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io,
      unrepresentable: 'any',
      cycles: 'ref',
      reused: 'inline',
    }) as JsonSchema;
    if (containsRootRef(json)) {
      // A schema that refers to itself at the root: wrap it so zod names the recursion.
      const wrapped = z.toJSONSchema(z.object({ root: schema }), {
        target: 'draft-2020-12',
        io,
        unrepresentable: 'any',
        cycles: 'ref',
        reused: 'inline',
      }) as JsonSchema;
      json = { ...((wrapped.properties as Record<string, JsonSchema>).root ?? {}), $defs: wrapped.$defs };
    }
    const defs = (json.$defs ?? {}) as Record<string, JsonSchema>;
    delete json.$defs;
    delete json.$schema;
    // Final component name of each local definition: its id, or a name from the hint for
    // zod's generated `__schemaN`; a name already taken by a different schema gets a suffix.
    const renames = new Map<string, string>();
    for (const local of Object.keys(defs)) {
      const base = local.startsWith('__schema') ? `${nameHint}${local.slice('__schema'.length)}` : local;
      renames.set(local, base);
    }
    const rewrite = (node: unknown): unknown => rewriteRefs(node, renames);
    for (const [local, def] of Object.entries(defs)) {
      const body = rewrite(def) as JsonSchema;
      let name = renames.get(local)!;
      const existing = this.named.get(name);
      if (existing && !isDeepStrictEqual(existing, body)) {
        // The same id means a different shape on the input side (defaults, transforms).
        name = io === 'input' ? `${name}Input` : `${name}Output`;
        const again = this.named.get(name);
        if (again && !isDeepStrictEqual(again, body)) {
          throw new Error(
            `OpenAPI: two different schemas are named ${renames.get(local)}; give them distinct .meta({ id })`,
          );
        }
        renames.set(local, name);
      }
    }
    // Second pass with the final names.
    for (const [local, def] of Object.entries(defs)) this.named.set(renames.get(local)!, rewrite(def) as JsonSchema);
    return rewrite(json) as JsonSchema;
  }

  components(): Record<string, JsonSchema> {
    return Object.fromEntries([...this.named.entries()].sort(([a], [b]) => a.localeCompare(b)));
  }
}

function containsRootRef(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(containsRootRef);
  if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && v === '#') return true;
      if (containsRootRef(v)) return true;
    }
  }
  return false;
}

function rewriteRefs(node: unknown, renames: Map<string, string>): unknown {
  if (Array.isArray(node)) return node.map((n) => rewriteRefs(n, renames));
  if (node && typeof node === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith('#/$defs/')) {
        const local = v.slice('#/$defs/'.length);
        out[k] = `#/components/schemas/${renames.get(local) ?? local}`;
      } else {
        out[k] = rewriteRefs(v, renames);
      }
    }
    return enumKeyedRecordAsProperties(out);
  }
  return node;
}

/**
 * zod writes a record keyed by an enum (`z.record(z.enum([...]), v)`, every key present) as
 * `propertyNames` + `additionalProperties` + `required`: valid, but its required names are no
 * properties, which generators and linters read as undefined fields. The same constraint with
 * the keys as properties.
 */
function enumKeyedRecordAsProperties(schema: Record<string, unknown>): Record<string, unknown> {
  const names = (schema.propertyNames as { enum?: unknown[] } | undefined)?.enum;
  const value = schema.additionalProperties;
  if (schema.type !== 'object' || schema.properties || !Array.isArray(names) || typeof value !== 'object')
    return schema;
  const { propertyNames: _names, additionalProperties: _value, ...rest } = schema;
  return {
    ...rest,
    properties: Object.fromEntries(names.map((n) => [String(n), value])),
    additionalProperties: false,
  };
}
