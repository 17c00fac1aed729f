import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { AGENT_ENDPOINTS, DESCRIPTOR_PATHS, UNLISTED_AGENT_ROUTES } from '#agent-contract';
import { METER_METADATA } from '#agent-billing';
import { openAiFunctionName } from '#agent-surface';
import { startTestApi, type TestApi } from '../api/support/test-api.js';
import { RouteRecorder, RouteRecorderModule } from './support/route-recorder.module.js';

type Json = Record<string, any>;

const HTTP_METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

/** The links of an llms.txt (`- [name](url): note`) with the method each declares (in its name or note; else GET). */
function llmsLinks(text: string): Array<{ method: string; url: string }> {
  const links: Array<{ method: string; url: string }> = [];
  for (const line of text.split('\n')) {
    const link = /^-\s+\[([^\]]+)\]\(([^)]+)\)(?::\s*(.*))?$/.exec(line);
    if (!link) continue;
    const declared =
      /^(GET|POST|PUT|PATCH|DELETE)\b/.exec(link[1]!) ?? /^(GET|POST|PUT|PATCH|DELETE):/.exec(link[3] ?? '');
    links.push({ method: declared?.[1] ?? 'GET', url: link[2]! });
  }
  return links;
}

/**
 * Every document that publishes the MCP tools publishes what the live endpoint serves
 * (they restated the schemas and 11 of 13 had drifted), and every agent route the router serves
 * is in the agent feed and llms.txt, or in the one list of routes left out on purpose.
 */
describe('published tools and routes are the live ones (real HTTP)', () => {
  let api: TestApi;
  let live: Json[];
  const documents = new Map<string, Json>();
  let llmsTxt: string;

  before(async () => {
    api = await startTestApi({ imports: [RouteRecorderModule] });
    const listed = await fetch(`${api.url}/api/v1/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    assert.equal(listed.status, 200);
    live = ((await listed.json()) as Json).result.tools;
    assert.equal(live.length, 13);
    for (const path of [
      DESCRIPTOR_PATHS.agent_feed,
      DESCRIPTOR_PATHS.mcp_server,
      DESCRIPTOR_PATHS.well_known_mcp_server,
      '/api/v1/agents/registry-pack/openai',
      '/api/v1/agents/registry-pack/mcp',
      '/api/v1/agents/registry-pack/generic',
      '/api/v1/agents/capabilities',
    ]) {
      const res = await fetch(`${api.url}${path}`);
      assert.equal(res.status, 200, path);
      const body = (await res.json()) as Json;
      documents.set(path, path.startsWith('/api/v1/') ? body.data : body);
    }
    llmsTxt = await (await fetch(`${api.url}${DESCRIPTOR_PATHS.llms_txt}`)).text();
  });
  after(async () => {
    await api?.close();
  });

  const doc = (path: string) => documents.get(path)!;
  const names = () => live.map((t) => t.name);

  it('the agent feed and the MCP registry pack publish each tool’s inputSchema exactly as tools/list serves it', () => {
    for (const tools of [doc(DESCRIPTOR_PATHS.agent_feed).mcp.tools, doc('/api/v1/agents/registry-pack/mcp').tools]) {
      assert.deepEqual(
        tools.map((t: Json) => t.name),
        names(),
      );
      for (const t of live)
        assert.deepEqual(tools.find((p: Json) => p.name === t.name).input_schema, t.inputSchema, t.name);
    }
  });

  it('the MCP registry pack publishes each tool’s outputSchema, title and annotations exactly as tools/list', () => {
    const pack = doc('/api/v1/agents/registry-pack/mcp').tools as Json[];
    for (const t of live) {
      const published = pack.find((p) => p.name === t.name)!;
      assert.deepEqual(published.output_schema, t.outputSchema, t.name);
      assert.deepEqual([published.title, published.annotations], [t.title, t.annotations], t.name);
    }
  });

  it('the OpenAI pack’s function parameters are the inputSchemas of tools/list', () => {
    const pack = doc('/api/v1/agents/registry-pack/openai');
    assert.deepEqual(
      pack.tools.map((t: Json) => t.function.name),
      names().map(openAiFunctionName),
    );
    for (const t of live) {
      const fn = pack.tools.find((p: Json) => p.function.name === openAiFunctionName(t.name)).function;
      assert.deepEqual(fn.parameters, t.inputSchema, t.name);
    }
  });

  it('server.json (both addresses), the generic pack and capabilities name the live tools, no more, no fewer', () => {
    for (const path of [DESCRIPTOR_PATHS.mcp_server, DESCRIPTOR_PATHS.well_known_mcp_server])
      assert.deepEqual(
        doc(path)._meta['io.modelcontextprotocol.registry/publisher-provided'].tools.map((t: Json) => t.name),
        names(),
        path,
      );
    assert.deepEqual(
      doc('/api/v1/agents/registry-pack/generic').operations.map((o: Json) => o.name),
      names(),
    );
    assert.deepEqual(
      doc('/api/v1/agents/capabilities').mcp.tools.map((t: Json) => t.name),
      names(),
    );
  });

  it('every agent route the router serves is in the agent feed and llms.txt, or listed as left out with a reason', () => {
    const served = api.app
      .get(RouteRecorder)
      .routes.filter((r) => HTTP_METHODS.has(r.method) && r.path.startsWith('/api/v1/'));
    assert.ok(served.length > 50, `${served.length} routes under /api/v1`);
    const unlisted = new Set(UNLISTED_AGENT_ROUTES.map((r) => `${r.method} /api/v1${r.path}`));
    const feed = new Set(
      (doc(DESCRIPTOR_PATHS.agent_feed).endpoints as Json[]).map((e) => `${e.method} ${e.url.slice(api.url.length)}`),
    );
    const llms = new Set(
      llmsLinks(llmsTxt)
        .filter((l) => l.url.startsWith(api.url))
        .map((l) => `${l.method} ${l.url.slice(api.url.length)}`),
    );
    const missing: string[] = [];
    for (const { method, path } of served) {
      const route = `${method} ${path}`;
      if (unlisted.has(route)) continue;
      if (!feed.has(route)) missing.push(`${route}: not in /agent-feed.json`);
      if (!llms.has(route)) missing.push(`${route}: not in /llms.txt`);
    }
    assert.deepEqual(missing, []);
    // The list of routes left out names only routes that exist, each with its reason.
    const routes = new Set(served.map((r) => `${r.method} ${r.path}`));
    for (const r of UNLISTED_AGENT_ROUTES) {
      assert.ok(routes.has(`${r.method} /api/v1${r.path}`), `${r.method} ${r.path} is not served: drop it`);
      assert.ok(r.reason.length > 20, `${r.method} ${r.path} says why it is left out`);
      assert.ok(!feed.has(`${r.method} /api/v1${r.path}`), `${r.method} ${r.path} is listed and left out at once`);
    }
  });

  it('each route charges the meter its endpoint-table row (and so every document) states', () => {
    const discovery = api.app.get(DiscoveryService, { strict: false });
    const scanner = api.app.get(MetadataScanner, { strict: false });
    const charged = new Map<string, string | null>();
    for (const { metatype, instance } of discovery.getControllers()) {
      if (!metatype || !instance) continue;
      const prefix = String(Reflect.getMetadata(PATH_METADATA, metatype) ?? '');
      const proto = Object.getPrototypeOf(instance) as Record<string, unknown>;
      for (const name of scanner.getAllMethodNames(proto)) {
        const handler = proto[name] as object;
        const path = Reflect.getMetadata(PATH_METADATA, handler) as string | undefined;
        if (path === undefined) continue;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
        const full = `/${[prefix, path]
          .map((s) => s.replace(/^\/|\/$/g, ''))
          .filter(Boolean)
          .join('/')}`.replace(/:([A-Za-z_]+)/g, '{$1}');
        charged.set(`${method} ${full}`, (Reflect.getMetadata(METER_METADATA, handler) as string | undefined) ?? null);
      }
    }
    const differ = AGENT_ENDPOINTS.filter((e) => e.status !== 'planned')
      .map((e) => [`${e.method} /api/v1${e.path}`, e.meter ?? null] as const)
      .filter(([route, meter]) => charged.get(route) !== meter)
      .map(([route, meter]) => `${route}: table ${meter}, route ${charged.get(route)}`);
    assert.deepEqual(differ, []);
  });
});
