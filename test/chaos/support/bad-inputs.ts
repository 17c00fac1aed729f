import fc from 'fast-check';
import {
  CONTENT_TYPES,
  cursorVariants,
  ENUM_QUERY,
  HEADERS,
  INTEGER_QUERY,
  MALFORMED_JSON,
  pct,
  RAW_NUMBERS,
  show,
  unicodeString,
  wrongTypes,
} from './bad-values.js';
import {
  exampleOf,
  type KnownValues,
  type Operation,
  propertyPaths,
  type SchemaResolver,
} from './openapi-operations.js';

/** One bad request for an operation: what differs from its valid baseline. */
export interface BadInput {
  category: string;
  summary: string;
  /** Raw (already percent-encoded) path segments by parameter name; the others stay valid. */
  params?: Record<string, string>;
  /** Raw query string, without `?`. */
  query?: string;
  headers?: Record<string, string>;
  /** The raw body (the baseline's JSON when undefined and the operation has a body). */
  body?: string | Buffer;
  /** null: no content-type header; undefined: application/json when a body is sent. */
  contentType?: string | null;
  /** The document forbids what this input adds (additionalProperties: false): a 2xx contradicts it. */
  forbiddenByDoc?: boolean;
  /** Over the 1 MiB body limit: the server may close the connection once it has answered 413. */
  overLimit?: boolean;
}

export interface InputContext {
  op: Operation;
  refs: SchemaResolver;
  /** Valid path segments (resources of the caller's own account). */
  params: Record<string, string>;
  known: KnownValues;
  /** The valid body, when the schema cannot give one (default: exampleOf the schema). */
  body?: unknown;
  /** Real cursors of lists (of any operation): replayed, forged and tampered with. */
  cursors: string[];
  /** Real ids of other kinds (never the caller's own keys): ids of the wrong kind. */
  otherIds: string[];
  /** Headers every request of the operation carries (unless the input replaces them). */
  headers?: Record<string, string>;
  seed: number;
  /** Multiplies every category's count (1 in `npm test`). */
  scale?: number;
}

const RAW = 'CHAOS_RAW_TOKEN';
const BODY_LIMIT = 1024 * 1024;

function cloneJson<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

function setPath(target: unknown, path: string[], value: unknown): unknown {
  const root: any = target && typeof target === 'object' && !Array.isArray(target) ? cloneJson(target) : {};
  let node = root;
  for (const key of path.slice(0, -1)) {
    if (!node[key] || typeof node[key] !== 'object' || Array.isArray(node[key])) node[key] = {};
    node = node[key];
  }
  node[path[path.length - 1]!] = value;
  return root;
}

function withRaw(base: unknown, path: string[], raw: string): string {
  return JSON.stringify(setPath(base, path, RAW)).replace(`"${RAW}"`, raw);
}

/** The bad inputs for one operation, by category (fixed seed, bounded counts). */
export function badInputsFor(ctx: InputContext): BadInput[] {
  const { op } = ctx;
  const baseline = op.body ? validBody(ctx) : undefined;
  const baseJson = baseline === undefined ? '' : JSON.stringify(baseline);
  const paths = op.body ? propertyPaths(ctx.refs, op.body) : [];
  const pathsArb: fc.Arbitrary<string[]> = paths.length ? fc.constantFrom(...paths) : fc.constant(['chaos']);
  const required: string[] = op.body ? (ctx.refs.resolve(op.body).required ?? []) : [];
  const strict = op.body ? ctx.refs.resolve(op.body).additionalProperties === false : false;
  const categories: Array<[string, number, fc.Arbitrary<BadInput>]> = [];
  const cat = (name: string, count: number, arb: fc.Arbitrary<Omit<BadInput, 'category'>>) =>
    categories.push([name, count, arb.map((input) => ({ category: name, ...input }))]);
  const writes = op.method !== 'GET';

  if (op.body) {
    cat(
      'wrong-type',
      12,
      fc.tuple(pathsArb, wrongTypes).map(([p, v]) => ({
        summary: `body.${p.join('.')} = ${show(v)}`,
        body: JSON.stringify(setPath(baseline, p, v)),
      })),
    );
    cat(
      'unicode',
      8,
      fc.tuple(pathsArb, unicodeString).map(([p, v]) => ({
        summary: `body.${p.join('.')} = ${show(v)}`,
        body: JSON.stringify(setPath(baseline, p, v)),
      })),
    );
    cat(
      'number-literal',
      4,
      fc.tuple(pathsArb, fc.constantFrom(...RAW_NUMBERS)).map(([p, raw]) => ({
        summary: `body.${p.join('.')} = ${raw} (raw)`,
        body: withRaw(baseline, p, raw),
      })),
    );
    cat(
      'missing',
      2,
      fc.constantFrom(...required, '*').map((field) => {
        if (field === '*') return { summary: 'body {} (every field missing)', body: '{}' };
        const body = cloneJson(baseline) as Record<string, unknown>;
        delete body[field];
        return { summary: `body without required ${field}`, body: JSON.stringify(body) };
      }),
    );
    cat(
      'unknown-field',
      4,
      fc
        .tuple(
          fc.oneof(
            fc.constantFrom('__proto__', 'constructor', 'account_id', 'tenant_id', 'id', 'balance_usd', '$where'),
            fc.string({ minLength: 1, maxLength: 16 }),
          ),
          fc.jsonValue({ maxDepth: 2 }),
        )
        .filter(([k]) => !paths.some((p) => p.length === 1 && p[0] === k))
        .map(([k, v]) => {
          const rest = baseJson.replace(/^\{/, '').trim();
          const body = `{${JSON.stringify(k)}:${JSON.stringify(v) ?? 'null'}${rest === '}' ? '}' : `,${rest}`}`;
          return { summary: `unknown body field ${show(k)} = ${show(v)}`, body, forbiddenByDoc: strict };
        }),
    );
    cat(
      'body-type',
      3,
      fc
        .oneof(
          fc.constantFrom('[]', 'null', '"x"', '42', 'true', '[{}]'),
          fc.jsonValue().map((v) => JSON.stringify(v) ?? 'null'),
        )
        .map((body) => ({ summary: `body ${show(body)}`, body })),
    );
  }
  if (op.body || writes) {
    const json = baseJson || '{}';
    cat(
      'malformed-json',
      op.body ? 5 : 2,
      fc.oneof(
        fc.constantFrom(...MALFORMED_JSON).map((body) => ({ summary: `malformed JSON ${show(body)}`, body })),
        fc
          .nat({ max: json.length - 1 })
          .map((n) => ({ summary: `JSON cut at ${n}: ${show(json.slice(0, n))}`, body: json.slice(0, n) })),
        fc.constant({
          summary: 'invalid UTF-8 bytes in a JSON string',
          body: Buffer.concat([
            Buffer.from('{"name":"'),
            Buffer.from([0xff, 0xfe, 0xed, 0xa0, 0x80, 0xc0, 0xaf]),
            Buffer.from('"}'),
          ]),
        }),
      ),
    );
    cat(
      'content-type',
      op.body ? 3 : 1,
      fc.constantFrom(...CONTENT_TYPES).map((contentType) => ({
        summary: `content-type ${contentType === null ? '(none)' : show(contentType)} with a JSON body`,
        body: json,
        contentType,
      })),
    );
  }
  if (op.body) {
    const huge: Array<[string, (p: string[]) => string]> = [
      ['a 1 MB string', (p) => JSON.stringify(setPath(baseline, p, 'x'.repeat(BODY_LIMIT - 64 - baseJson.length)))],
      ['a 0.8 MB emoji string', (p) => JSON.stringify(setPath(baseline, p, '😀'.repeat(200_000)))],
      ['a 150,000-item array', (p) => withRaw(baseline, p, `[${'0,'.repeat(149_999)}0]`)],
      ['20,000 unknown fields', () => `{${Array.from({ length: 20_000 }, (_, i) => `"f${i}":${i}`).join(',')}}`],
      ['arrays nested 50,000 deep', (p) => withRaw(baseline, p, `${'['.repeat(50_000)}${']'.repeat(50_000)}`)],
      ['objects nested 20,000 deep', (p) => withRaw(baseline, p, `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`)],
      ['a regex-hostile string', (p) => JSON.stringify(setPath(baseline, p, `${'a.'.repeat(30_000)}!`))],
      ['a regex-hostile digit run', (p) => JSON.stringify(setPath(baseline, p, `${'0'.repeat(100_000)}x`))],
    ];
    cat(
      'huge',
      4,
      fc.tuple(pathsArb, fc.constantFrom(...huge)).map(([p, [what, make]]) => ({
        summary: `body.${p.join('.')} = ${what}`,
        body: make(p),
      })),
    );
    cat(
      'over-limit',
      1,
      pathsArb.map((p) => ({
        summary: `body.${p.join('.')} = a 1.1 MB string (over the limit)`,
        body: JSON.stringify(setPath(baseline, p, 'x'.repeat(1_100_000))),
        overLimit: true,
      })),
    );
  }
  if (op.pathParams.length) {
    const names = op.pathParams.map((p) => p.name);
    const base = ctx.params;
    const tweaks = names.flatMap((n) => {
      const id = base[n] ?? 'x';
      return [
        `${id}X`,
        id.slice(0, -1),
        id.toLowerCase(),
        id.toUpperCase(),
        `${id}%00`,
        `${id}%20`,
        `${id}.json`,
        `${id};x`,
        id.replace(/^[a-z]+_/, 'zz_'),
        id.replace(/.$/, 'I'),
        pct(`${id}/..`),
      ];
    });
    const rawIds = [
      '%00',
      '%2F',
      '..',
      '%2e%2e',
      '%20',
      'null',
      'undefined',
      '0',
      '-1',
      '1e308',
      'NaN',
      pct("' OR '1'='1"),
      pct('{"$ne":null}'),
      '%E0%A4%A',
      '%C0%AF',
      '%FF',
      '%ED%A0%80',
      '%F0%9F%98%80',
      '%E2%80%AE',
      '__proto__',
      'constructor',
      'a'.repeat(64),
      'a'.repeat(65),
      'a'.repeat(100),
      'a'.repeat(101),
      'a'.repeat(2000),
    ];
    cat(
      'path-id',
      12,
      fc
        .tuple(
          fc.constantFrom(...names),
          fc.oneof(
            fc.constantFrom(...rawIds, ...tweaks),
            fc.constantFrom(...(ctx.otherIds.length ? ctx.otherIds : ['x'])),
            fc.oneof(unicodeString, fc.string({ minLength: 1, maxLength: 30 })).map(pct),
          ),
        )
        .map(([name, raw]) => ({
          summary: `path ${name} = ${show(decodeForSummary(raw))}`,
          params: { [name]: raw },
        })),
    );
  }
  const cursors = cursorVariants(ctx.cursors);
  const queryValue = (name: string): fc.Arbitrary<string> => {
    const param = op.queryParams.find((p) => p.name === name);
    const schema = param?.schema ?? {};
    if (name === 'cursor' || name === 'after')
      return fc.constantFrom(...cursors).map((c) => (c.includes('%') ? c : pct(c)));
    if (schema.type === 'integer' || schema.type === 'number') {
      // A long poll that reads " 5" as 5 s would only wait: keep the values it refuses or reads as 0.
      const values = INTEGER_QUERY.filter((v) => name !== 'wait_seconds' || !(Number(decodeForSummary(v)) > 0));
      return fc.constantFrom(...values);
    }
    if (Array.isArray(schema.enum)) return fc.constantFrom(...ENUM_QUERY);
    return fc.oneof(
      fc.constantFrom('', '%00', 'x'.repeat(5000), ...cursors.slice(0, 3)),
      fc.oneof(unicodeString, fc.string({ maxLength: 20 })).map(pct),
    );
  };
  const documented = op.queryParams.map((p) => p.name);
  cat(
    'query',
    documented.length ? 8 : 2,
    fc.oneof(
      ...(documented.length
        ? [
            fc.constantFrom(...documented).chain((name) =>
              queryValue(name).map((v) => ({
                summary: `?${name}=${show(decodeForSummary(v))}`,
                query: `${name}=${v}`,
              })),
            ),
            fc.constantFrom(...documented).map((name) => ({ summary: `?${name} twice`, query: `${name}=1&${name}=2` })),
            fc
              .constantFrom(...documented)
              .map((name) => ({ summary: `?${name}[$gt]=`, query: `${pct(`${name}[$gt]`)}=&${name}[]=1` })),
          ]
        : []),
      fc
        .tuple(
          fc.oneof(
            fc.constantFrom('__proto__', 'constructor', 'limit', 'cursor', '%00'),
            fc.string({ minLength: 1, maxLength: 12 }).map(pct),
          ),
          unicodeString,
        )
        .map(([k, v]) => ({ summary: `unknown ?${show(k)}=${show(v)}`, query: `${k}=${pct(v)}` })),
      fc.constant({ summary: 'a 20,000-character query string', query: `q=${'x'.repeat(20_000)}` }),
      fc.constant({ summary: 'malformed percent-encoding in the query', query: 'limit=%&cursor=%E0%A4%A&%=1' }),
    ),
  );
  cat(
    'headers',
    3,
    fc.constantFrom(...HEADERS).map((headers) => ({
      summary: `header ${Object.entries(headers)
        .map(([k, v]) => `${k}: ${show(v)}`)
        .join(', ')}`,
      headers,
    })),
  );

  const out: BadInput[] = [];
  categories.forEach(([name, count, arb], i) => {
    const numRuns = Math.max(1, Math.round(count * (ctx.scale ?? 1)));
    out.push(...fc.sample(arb, { seed: ctx.seed + i * 7919 + hash(name), numRuns }));
  });
  return out;
}

export function validBody(ctx: InputContext): unknown {
  return ctx.body ?? exampleOf(ctx.refs, ctx.op.body ?? undefined, ctx.known);
}

function decodeForSummary(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

export function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** Method, target, headers and body of a bad input, the rest of the request valid. */
export function requestFor(
  ctx: InputContext,
  input: BadInput,
): { method: string; target: string; headers: Record<string, string>; body?: string | Buffer } {
  const { op } = ctx;
  const path = op.path.replace(
    /\{([^}]+)\}/g,
    (_, name: string) => input.params?.[name] ?? pct(ctx.params[name] ?? 'x'),
  );
  const target = input.query !== undefined ? `${path}?${input.query}` : path;
  const headers: Record<string, string> = { ...ctx.headers, ...input.headers };
  let body = input.body;
  if (body === undefined && op.body) body = JSON.stringify(validBody(ctx));
  if (op.method === 'GET') body = undefined;
  if (body !== undefined) {
    if (input.contentType === undefined) headers['content-type'] = 'application/json';
    else if (input.contentType !== null) headers['content-type'] = input.contentType;
    // fetch labels a string body text/plain; bytes go without a content-type.
    else body = Buffer.from(body);
  }
  return { method: op.method, target, headers, ...(body === undefined ? {} : { body }) };
}
