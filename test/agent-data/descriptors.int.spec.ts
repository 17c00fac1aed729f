import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import {
  AGENT_ENDPOINTS,
  CREDIT_PACKS,
  DESCRIPTOR_PATHS,
  MCP_TOOLS,
  METER_NAMES,
  REGISTRY_TARGETS,
  SERVICE_KEYS,
  findEndpoint,
  meterPrices,
} from '#agent-contract';
import { MCP_SERVER_SCHEMA_URL, SITE_DOCUMENT_NAMES, SITE_DOCUMENTS } from '#agent-surface';
import { centsToUsd } from '#kernel';
import { startTestApi, type TestApi } from '../api/support/test-api.js';

/** The MCP registry's server.json schema, vendored unmodified (fixtures/README.md). */
const SCHEMA_FILE = fileURLToPath(new URL('../../../test/agent-data/fixtures/server.schema.json', import.meta.url));

const CACHE_CONTROL = 'public, max-age=300';
const OPENAPI_DOCUMENTS = [
  { path: DESCRIPTOR_PATHS.openapi, contentType: 'application/yaml; charset=utf-8' },
  { path: '/docs/api/openapi.v1.json', contentType: 'application/json; charset=utf-8' },
];
/** Every document with its address and content type: the site root's and the OpenAPI ones. */
const ALL_DOCUMENTS = [
  ...SITE_DOCUMENT_NAMES.map((name) => ({
    path: SITE_DOCUMENTS[name].path,
    contentType: SITE_DOCUMENTS[name].contentType,
  })),
  ...OPENAPI_DOCUMENTS,
];

const ABSOLUTE = /https?:\/\/[^\s"'<>()`\\]+/g;
const trimEnd = (s: string) => s.replace(/[.,;:]+$/, '');
const decodeHtml = (s: string) => s.replaceAll('&amp;', '&');
const planned = (method: string, pathname: string) =>
  AGENT_ENDPOINTS.some(
    (e) =>
      e.status === 'planned' &&
      e.method === method &&
      new RegExp(`^/api/v1${e.path.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(pathname),
  );

/** The method a JSON document declares for a URL: `{method, url}` objects, and MCP remotes (POST). */
function declaredMethods(value: unknown, into: Map<string, Set<string>>): void {
  if (Array.isArray(value)) value.forEach((v) => declaredMethods(v, into));
  else if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    const method = typeof o.method === 'string' ? o.method : o.type === 'streamable-http' ? 'POST' : undefined;
    const url = typeof o.url === 'string' ? o.url : typeof o.endpoint === 'string' ? o.endpoint : undefined;
    if (method && url) into.set(url, new Set([...(into.get(url) ?? []), method]));
    Object.values(o).forEach((v) => declaredMethods(v, into));
  }
}

describe('public descriptors at the site root (real HTTP)', () => {
  let api: TestApi;
  const bodies = new Map<string, string>();
  const get = async (path: string, headers: Record<string, string> = {}) => fetch(`${api.url}${path}`, { headers });
  const json = (path: string) => JSON.parse(bodies.get(path)!) as any;

  before(async () => {
    api = await startTestApi();
    for (const { path } of ALL_DOCUMENTS) {
      const res = await get(path);
      assert.equal(res.status, 200, path);
      bodies.set(path, await res.text());
    }
  });
  after(async () => {
    await api?.close();
  });

  it('answers each document with its content type, an ETag, a five-minute Cache-Control, and 304 on If-None-Match', async () => {
    for (const { path, contentType } of ALL_DOCUMENTS) {
      const res = await get(path);
      assert.equal(res.status, 200, path);
      assert.equal(res.headers.get('content-type'), contentType, path);
      assert.equal(res.headers.get('cache-control'), CACHE_CONTROL, path);
      const etag = res.headers.get('etag');
      assert.match(etag ?? '', /^"[A-Za-z0-9_-]+"$/, path);
      assert.equal(await res.text(), bodies.get(path), `${path}: the same bytes every time`);

      const again = await get(path, { 'if-none-match': etag! });
      assert.equal(again.status, 304, path);
      assert.equal(await again.text(), '', path);
      assert.equal(again.headers.get('etag'), etag, path);
      assert.equal(again.headers.get('cache-control'), CACHE_CONTROL, path);
      assert.equal((await get(path, { 'if-none-match': `"other", W/${etag}` })).status, 304, `${path}: a list, weak`);
      const changed = await get(path, { 'if-none-match': '"something-else"' });
      assert.equal(changed.status, 200, path);
      await changed.arrayBuffer();
    }
  });

  it('serves every descriptor the other documents name, at the addresses of DESCRIPTOR_PATHS', async () => {
    for (const [name, path] of Object.entries(DESCRIPTOR_PATHS)) {
      const res = await get(path);
      assert.equal(res.status, 200, name);
      await res.arrayBuffer();
    }
    const capabilities = (await (await get('/api/v1/agents/capabilities')).json()) as any;
    assert.deepEqual(
      capabilities.data.descriptors,
      Object.fromEntries(Object.entries(DESCRIPTOR_PATHS).map(([name, path]) => [name, `${api.url}${path}`])),
    );
    assert.equal(capabilities.data.planned_descriptors, undefined);
    const generic = (await (await get('/api/v1/agents/registry-pack/generic')).json()) as any;
    assert.equal(generic.data.llms_txt_url, `${api.url}/llms.txt`);
    assert.equal(generic.data.agent_feed_url, `${api.url}/agent-feed.json`);
    const mcp = (await (await get('/api/v1/agents/registry-pack/mcp')).json()) as any;
    assert.equal(mcp.data.server_json_url, `${api.url}/mcp/server.json`);
    assert.equal(mcp.data.well_known_url, `${api.url}/.well-known/mcp-server.json`);
  });

  it('server.json validates against the MCP registry schema, the same document at both addresses', async () => {
    const text = await readFile(SCHEMA_FILE, 'utf8');
    // Unmodified: the hash its README records is the published file's.
    const readme = await readFile(SCHEMA_FILE.replace(/server\.schema\.json$/, 'README.md'), 'utf8');
    assert.ok(readme.includes(createHash('sha256').update(text).digest('hex')), 'the schema is the vendored one');
    const schema = JSON.parse(text) as { $id: string };
    assert.equal(schema.$id, MCP_SERVER_SCHEMA_URL);
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats.default(ajv);
    const validate = ajv.compile<any>(schema);
    const server = json(DESCRIPTOR_PATHS.mcp_server);
    assert.ok(validate(server), JSON.stringify(validate.errors, null, 2));
    assert.equal(bodies.get(DESCRIPTOR_PATHS.well_known_mcp_server), bodies.get(DESCRIPTOR_PATHS.mcp_server));
    assert.equal(server.$schema, MCP_SERVER_SCHEMA_URL);
    assert.deepEqual(server.remotes, [
      {
        type: 'streamable-http',
        url: `${api.url}/api/v1/mcp`,
        headers: [
          {
            name: 'x-api-key',
            description: server.remotes[0].headers[0].description,
            isRequired: false,
            isSecret: true,
          },
        ],
      },
    ]);
    assert.match(server.remotes[0].headers[0].description, /x-api-key|key/i);
    // The schema rejects what the registry would: a description over 100 characters, no remote URL.
    assert.equal(validate({ ...server, description: 'x'.repeat(101) }), false);
    assert.equal(validate({ ...server, remotes: [{ type: 'streamable-http' }] }), false);
  });

  it('llms.txt and the quickstart, the first documents an agent reads, tell to retry pay with an Idempotency-Key, and it holds', async () => {
    const llms = bodies.get(DESCRIPTOR_PATHS.llms_txt)!;
    const note = /^Send an Idempotency-Key header .*instead of opening another account\.$/m.exec(llms)?.[0];
    assert.ok(note, 'llms.txt says it before the first section');
    assert.ok(llms.indexOf(note) < llms.indexOf('\n## '));
    const quickstart = (await (await fetch(`${api.url}/api/v1/agents/quickstart`)).json()) as any;
    const pay = quickstart.data.first_calls[0];
    assert.equal(pay.method, 'POST');
    assert.ok(pay.headers['Idempotency-Key'], JSON.stringify(pay));
    assert.equal(pay.note, note);
    // What they say: the same key within the day answers the same account.
    const retry = { method: 'POST', headers: { 'idempotency-key': 'retry-0123456789abcdef' } };
    const first = (await (await fetch(`${api.url}/api/v1/agents/pay`, retry)).json()) as any;
    const again = (await (await fetch(`${api.url}/api/v1/agents/pay`, retry)).json()) as any;
    assert.equal(again.account_id, first.account_id);
  });

  it('llms.txt: a title line, a summary blockquote, then sections of absolute links with notes', () => {
    const text = bodies.get(DESCRIPTOR_PATHS.llms_txt)!;
    const lines = text.split('\n');
    assert.match(lines[0]!, /^# \S/);
    assert.equal(lines[1], '');
    assert.match(lines[2]!, /^> \S.{40,}/);
    assert.equal(lines.filter((l) => l.startsWith('# ')).length, 1, 'one title');
    const sections = lines.filter((l) => l.startsWith('## ')).map((l) => l.slice(3));
    for (const s of ['Start', 'Data', 'Reference', 'Optional']) assert.ok(sections.includes(s), s);
    assert.equal(sections.at(-1), 'Optional', 'Optional comes last (llmstxt.org: may be skipped)');
    // Between the blockquote and the first section: paragraphs only, no headings.
    const firstSection = lines.findIndex((l) => l.startsWith('## '));
    assert.ok(lines.slice(3, firstSection).every((l) => !l.startsWith('#')));

    const items = lines.filter((l) => l.startsWith('- '));
    assert.ok(items.length > 20, `${items.length} links`);
    const links = new Map<string, string>();
    for (const line of items) {
      const m = /^- \[([^\]]+)\]\((\S+)\)(?:: (.+))?$/.exec(line);
      assert.ok(m, `a list item is "- [name](url): note": ${line}`);
      assert.ok(m[2]!.startsWith(`${api.url}/`), `absolute: ${m[2]}`);
      links.set(m[1]!, m[2]!);
    }
    const urls = [...links.values()];
    for (const url of [
      `${api.url}/api/v1/agents/quickstart`,
      `${api.url}/api/v1/agents/pay`,
      `${api.url}/api/v1/agents/catalog`,
      `${api.url}/docs/api/openapi.v1.yaml`,
      `${api.url}/api/v1/agents/errors`,
      `${api.url}/agent-feed.json`,
    ])
      assert.ok(urls.includes(url), url);
    if (findEndpoint('mcp').status !== 'planned') {
      assert.ok(sections.includes('MCP'));
      assert.ok(urls.includes(`${api.url}/api/v1/mcp`));
      assert.ok(urls.includes(`${api.url}/mcp/server.json`));
    }
    // Prices are the effective ones, from the meter table.
    const price = centsToUsd(meterPrices()['read.discovery_top']).toFixed(2);
    assert.ok(text.includes(`${price} USD per successful call (meter read.discovery_top)`));
  });

  it('ai-plugin.json: the OpenAI manifest fields, auth by the x-api-key header, and links that answer', async () => {
    const plugin = json(DESCRIPTOR_PATHS.ai_plugin);
    assert.deepEqual(Object.keys(plugin).sort(), [
      'api',
      'auth',
      'contact_email',
      'description_for_human',
      'description_for_model',
      'legal_info_url',
      'logo_url',
      'name_for_human',
      'name_for_model',
      'schema_version',
    ]);
    assert.equal(plugin.schema_version, 'v1');
    assert.ok(plugin.name_for_human.length > 0 && plugin.name_for_human.length <= 20, plugin.name_for_human);
    assert.match(plugin.name_for_model, /^[a-zA-Z0-9]{1,50}$/);
    assert.ok(plugin.description_for_human.length <= 100, plugin.description_for_human);
    assert.ok(plugin.description_for_model.length <= 8000);
    assert.ok(plugin.description_for_model.includes(`${api.url}/api/v1/agents/pay`));
    assert.equal(plugin.auth.type, 'service_http');
    assert.equal(plugin.auth.authorization_type, 'custom');
    assert.equal(plugin.auth.custom_auth_header, 'x-api-key');
    assert.deepEqual(plugin.api, {
      type: 'openapi',
      url: `${api.url}/docs/api/openapi.v1.yaml`,
      is_user_authenticated: false,
    });
    assert.match(plugin.contact_email, /^[^@\s]+@[^@\s]+\.[^@\s]+$/);

    const logo = await fetch(plugin.logo_url);
    assert.equal(logo.status, 200);
    assert.equal(logo.headers.get('content-type'), 'image/svg+xml');
    assert.match(await logo.text(), /^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    const legal = await fetch(plugin.legal_info_url);
    assert.equal(legal.status, 200);
    assert.equal(legal.headers.get('content-type'), 'text/html; charset=utf-8');
    const page = await legal.text();
    assert.ok(page.includes(`mailto:${plugin.contact_email}`));
    for (const pack of CREDIT_PACKS) assert.ok(page.includes(pack.name), pack.name);
  });

  it('agent-feed.json: services, packs, meters with prices, endpoints (method, absolute url, auth, meter) and MCP tools', () => {
    const feed = json(DESCRIPTOR_PATHS.agent_feed);
    const prices = meterPrices();
    assert.deepEqual(
      feed.services.map((s: any) => s.key),
      [...SERVICE_KEYS],
    );
    assert.deepEqual(
      feed.packs.map((p: any) => [p.pack_id, p.amount_usd, p.credits_usd]),
      CREDIT_PACKS.map((p) => [p.pack_id, centsToUsd(p.amount_cents), centsToUsd(p.credits_cents)]),
    );
    for (const p of feed.packs) assert.ok(p.checkout_url.startsWith(`${api.url}/api/v1/agents/checkout-link?`));
    assert.deepEqual(
      feed.meters.map((m: any) => [m.meter, m.price_usd]),
      METER_NAMES.map((m) => [m, centsToUsd(prices[m])]),
    );
    assert.deepEqual(
      feed.endpoints.map((e: any) => [e.name, e.method, e.url, e.auth, e.meter, e.status]),
      AGENT_ENDPOINTS.map((e) => [
        e.name,
        e.method,
        `${api.url}/api/v1${e.path}`,
        e.auth,
        e.meter ?? null,
        e.status ?? 'available',
      ]),
    );
    assert.equal(feed.mcp.endpoint, `${api.url}/api/v1/mcp`);
    assert.deepEqual(
      feed.mcp.tools.map((t: any) => [t.name, t.meter, t.price_usd]),
      MCP_TOOLS.map((t) => [t.name, t.meter ?? null, t.meter ? centsToUsd(prices[t.meter]) : null]),
    );
    for (const t of feed.mcp.tools) assert.equal(typeof t.input_schema, 'object', t.name);
  });

  it('service-agent: the entry points, each with its method and absolute URL', () => {
    const doc = json(DESCRIPTOR_PATHS.service_agent);
    const entries = doc.entry_points as Record<string, { method: string; url: string; status: string }>;
    for (const name of ['signup', 'pay', 'catalog', 'status', 'quickstart', 'errors', 'mcp'])
      assert.deepEqual(
        [entries[name]!.method, entries[name]!.url],
        [findEndpoint(name).method, `${api.url}/api/v1${findEndpoint(name).path}`],
        name,
      );
    for (const [name, path] of Object.entries(DESCRIPTOR_PATHS))
      assert.deepEqual(
        [entries[name]!.method, entries[name]!.url, entries[name]!.status],
        ['GET', `${api.url}${path}`, 'available'],
        name,
      );
    assert.equal(doc.api_base_url, `${api.url}/api/v1`);
  });

  it('every absolute URL in every document answers: no 404, 405 or 5xx, with the method the document declares', async () => {
    const methods = new Map<string, Set<string>>();
    const urls = new Set<string>();
    for (const { path, contentType } of ALL_DOCUMENTS) {
      const body = bodies.get(path)!;
      if (contentType.startsWith('application/json')) declaredMethods(JSON.parse(body), methods);
      for (const m of body.match(ABSOLUTE) ?? []) {
        const url = trimEnd(contentType.startsWith('text/html') ? decodeHtml(m) : m);
        if (url.startsWith(`${api.url}/`)) urls.add(url);
      }
    }
    // The site root and the API root are prefixes (base_url, api_base_url), not links.
    urls.delete(`${api.url}/api/v1`);
    assert.ok(urls.size > 40, `${urls.size} URLs`);

    const failures: string[] = [];
    let requests = 0;
    for (const url of urls) {
      for (const method of methods.get(url) ?? ['GET']) {
        const pathname = new URL(url).pathname;
        if (planned(method, decodeURIComponent(pathname))) continue;
        const withBody = method === 'POST' || method === 'PUT' || method === 'PATCH';
        // A template's {target} gets a real target; other placeholders meet the key check first (401).
        const res = await fetch(url.replaceAll('{target}', REGISTRY_TARGETS[0]), {
          method,
          redirect: 'manual',
          headers: {
            // Streamable HTTP (the MCP endpoint) wants both; other routes ignore it.
            accept: 'application/json, text/event-stream',
            ...(withBody ? { 'content-type': 'application/json' } : {}),
          },
          ...(withBody ? { body: '{}' } : {}),
        });
        await res.arrayBuffer();
        requests++;
        if (res.status === 404 || res.status === 405 || res.status >= 500)
          failures.push(`${method} ${url} → ${res.status}`);
      }
    }
    assert.ok(requests >= urls.size);
    assert.deepEqual(failures, []);
  });

  it('documents every /api/v1 route, and every endpoint-table row that is not planned, in the OpenAPI document', async () => {
    const doc = (await (await get('/docs/api/openapi.v1.json')).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    // The routes Nest serves, whether or not they carry @Operation.
    const discovery = api.app.get(DiscoveryService, { strict: false });
    const scanner = api.app.get(MetadataScanner, { strict: false });
    const served: string[] = [];
    for (const { metatype, instance } of discovery.getControllers()) {
      if (!metatype || !instance) continue;
      const prefix = String(Reflect.getMetadata(PATH_METADATA, metatype) ?? '');
      const proto = Object.getPrototypeOf(instance) as Record<string, unknown>;
      for (const name of scanner.getAllMethodNames(proto)) {
        const handler = proto[name] as object;
        const path = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
        if (path === undefined) continue;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
        for (const p of Array.isArray(path) ? path : [path]) {
          const full = `/${[prefix, p]
            .map((s) => s.replace(/^\/|\/$/g, ''))
            .filter(Boolean)
            .join('/')}`.replace(/:([A-Za-z_]+)/g, '{$1}');
          if (full.startsWith('/api/v1/')) served.push(`${method} ${full}`);
        }
      }
    }
    assert.ok(served.length > 50, `${served.length} routes under /api/v1`);
    assert.ok(served.some((r) => r.includes('/api/v1/workspace/')));
    const undocumented = served.filter((r) => {
      const [method, path] = r.split(' ') as [string, string];
      return !doc.paths[path]?.[method.toLowerCase()];
    });
    assert.deepEqual(undocumented, [], 'routes under /api/v1 missing from the OpenAPI document');

    for (const e of AGENT_ENDPOINTS.filter((x) => x.status !== 'planned'))
      assert.ok(
        doc.paths[`/api/v1${e.path}`]?.[e.method.toLowerCase()],
        `${e.method} /api/v1${e.path} is available in AGENT_ENDPOINTS but not in the OpenAPI document`,
      );
    // And the YAML says the same as the JSON.
    assert.ok(bodies.get(DESCRIPTOR_PATHS.openapi)!.includes('/api/v1/workspace/companies:'));
  });
});
