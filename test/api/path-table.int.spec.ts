import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { OpenApiService } from '#http';
import { startTestApi, type TestApi } from './support/test-api.js';

const root = new URL('../../..', import.meta.url).pathname;

/** The generated path table of docs/architecture.md (scripts/architecture-doc.mjs). */
function tableRows(): Array<{ method: string; path: string }> {
  const doc = readFileSync(`${root}docs/architecture.md`, 'utf8');
  const block = doc.slice(doc.indexOf('<!-- path-table:begin'), doc.indexOf('<!-- path-table:end'));
  return [...block.matchAll(/^\| (GET|POST|PUT|PATCH|DELETE) \| `([^`]+)` \|/gm)].map((m) => ({
    method: m[1]!,
    path: m[2]!,
  }));
}

describe("docs/architecture.md's path table is the app's routes", () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi();
  });
  after(async () => {
    await api?.close();
  });

  it('every row is a route the app serves, with the parameter names of its pattern', () => {
    const fastify = api.app.getHttpAdapter().getInstance() as FastifyInstance;
    const rows = tableRows();
    assert.ok(rows.length > 100, `${rows.length} rows`);
    // A parameter is a whole segment, named as in the route (`{clientId}`, never `{client}Id`).
    assert.deepEqual(
      rows.filter((r) => !/^(\/([\w.-]+|\{[A-Za-z_]\w*\}))*\/?$/.test(r.path)),
      [],
    );
    const missing = rows.filter(
      (r) => !fastify.hasRoute({ method: r.method as 'GET', url: r.path.replace(/\{(\w+)\}/g, ':$1') }),
    );
    assert.deepEqual(missing, []);
  });

  it('every operation the OpenAPI document describes has its row (the /oauth/* routes included)', () => {
    const rows = new Set(tableRows().map((r) => `${r.method} ${r.path}`));
    const operations = Object.entries(api.app.get(OpenApiService).document().paths ?? {}).flatMap(([path, item]) =>
      Object.keys(item as object)
        .filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
        .map((m) => `${m.toUpperCase()} ${path}`),
    );
    assert.ok(operations.includes('POST /oauth/token'));
    assert.deepEqual(
      operations.filter((o) => !rows.has(o)),
      [],
    );
  });
});
