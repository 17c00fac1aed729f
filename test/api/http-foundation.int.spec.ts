import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { Validator } from '@seriousme/openapi-schema-validator';
import { checkOpenApiDocument, findNonStrictObjects } from '#http';
import { startTestApi, type TestApi } from './support/test-api.js';
import { TestRoutesModule } from './support/test-routes.module.js';

/** Sends raw bytes (not even HTTP) and returns the whole answer. */
function raw(url: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    let out = '';
    socket.setEncoding('utf8').on('data', (c: string) => (out += c));
    socket.on('end', () => resolve(out));
    socket.on('error', reject);
  });
}

const json = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

function assertErrorShape(body: Record<string, unknown>, error: string, code: string): void {
  assert.equal(body.error, error);
  assert.equal(body.code, code);
  assert.equal(typeof body.message, 'string');
  assert.ok((body.message as string).length > 0);
}

describe('HTTP foundation (real HTTP, embedded stores)', () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi({ imports: [TestRoutesModule] });
  });
  after(async () => {
    await api?.close();
  });

  it('GET /health answers 200 with every store up and the projection lag', async () => {
    const res = await fetch(`${api.url}/health`);
    assert.equal(res.status, 200);
    const body = (await res.json()) as { status: string; details: Record<string, { status: string; lag?: number }> };
    assert.equal(body.status, 'ok');
    assert.equal(body.details.eventstore?.status, 'up');
    assert.equal(body.details.documents?.status, 'up');
    assert.equal(body.details.projections?.status, 'up');
    assert.equal(typeof body.details.projections?.lag, 'number');
  });

  it('answers an unknown route with 404 ROUTE_NOT_FOUND in the error shape', async () => {
    const res = await fetch(`${api.url}/no/such/route?x=1`);
    assert.equal(res.status, 404);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    const body = (await res.json()) as Record<string, unknown>;
    assertErrorShape(body, 'not_found', 'ROUTE_NOT_FOUND');
    assert.match(body.message as string, /GET \/no\/such\/route/);
  });

  it('answers malformed JSON with 400 MALFORMED_JSON; an empty JSON body is no body (a required one is asked for)', async () => {
    const res = await fetch(`${api.url}/test/things`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name": ',
    });
    assert.equal(res.status, 400);
    assertErrorShape((await res.json()) as Record<string, unknown>, 'bad_request', 'MALFORMED_JSON');
    const empty = await fetch(`${api.url}/test/things`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '',
    });
    assert.equal(empty.status, 400);
    assertErrorShape((await empty.json()) as Record<string, unknown>, 'validation_failed', 'VALIDATION_FAILED');
    const proto = await fetch(`${api.url}/test/things`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"__proto__": {"name": "x"}}',
    });
    assert.equal(proto.status, 400);
  });

  it('answers a body over 1 MiB with 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await fetch(`${api.url}/test/things`, json({ name: 'x'.repeat(1024 * 1024) }));
    assert.equal(res.status, 413);
    assertErrorShape((await res.json()) as Record<string, unknown>, 'payload_too_large', 'PAYLOAD_TOO_LARGE');
  });

  it('answers an unsupported content type with 415', async () => {
    const res = await fetch(`${api.url}/test/things`, {
      method: 'POST',
      headers: { 'content-type': 'application/xml' },
      body: '<thing/>',
    });
    assert.equal(res.status, 415);
    assertErrorShape((await res.json()) as Record<string, unknown>, 'unsupported_media_type', 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('validates the body against the operation schema: details per field, unknown fields rejected', async () => {
    const res = await fetch(
      `${api.url}/test/things`,
      json({ name: '', count: 1.5, extra: true, nested: { flag: 'yes', more: 1 } }),
    );
    assert.equal(res.status, 400);
    const body = (await res.json()) as { details: Array<{ path: string; message: string }> } & Record<string, unknown>;
    assertErrorShape(body, 'validation_failed', 'VALIDATION_FAILED');
    const paths = body.details.map((d) => d.path).sort();
    assert.deepEqual(paths, ['body.count', 'body.extra', 'body.name', 'body.nested.flag', 'body.nested.more']);
    for (const d of body.details) assert.equal(typeof d.message, 'string');
    assert.equal(body.details.find((d) => d.path === 'body.extra')?.message, 'unknown field');

    const ok = await fetch(`${api.url}/test/things`, json({ name: 'widget', count: 2 }));
    assert.equal(ok.status, 201);
    assert.deepEqual(await ok.json(), { name: 'widget', count: 2 });

    const missing = await fetch(`${api.url}/test/things`, { method: 'POST' });
    assert.equal(missing.status, 400);
    assert.equal(((await missing.json()) as Record<string, unknown>).code, 'VALIDATION_FAILED');
  });

  it('validates and coerces path and query parameters, rejecting unknown query fields', async () => {
    const ok = await fetch(`${api.url}/test/things/thing_abc?limit=5`);
    assert.equal(ok.status, 200);
    assert.deepEqual(await ok.json(), { id: 'thing_abc', limit: 5 });
    const defaulted = await fetch(`${api.url}/test/things/thing_abc`);
    assert.deepEqual(await defaulted.json(), { id: 'thing_abc', limit: 20 });
    const bad = await fetch(`${api.url}/test/things/THING?limit=0&other=1`);
    assert.equal(bad.status, 400);
    const body = (await bad.json()) as { details: Array<{ path: string }> };
    assert.deepEqual(body.details.map((d) => d.path).sort(), ['params.id', 'query.limit', 'query.other']);
  });

  it('answers an unexpected error with 500 INTERNAL_ERROR and leaks nothing', async () => {
    const res = await fetch(`${api.url}/test/boom`);
    assert.equal(res.status, 500);
    const text = await res.text();
    assertErrorShape(JSON.parse(text) as Record<string, unknown>, 'internal_error', 'INTERNAL_ERROR');
    assert.doesNotMatch(text, /secret|hunter2|sqlite|stack|at /i);
  });

  it('maps a wrong expected revision to 409, a read model behind and an unavailable store to 503', async () => {
    const conflict = await fetch(`${api.url}/test/conflict`);
    assert.equal(conflict.status, 409);
    const c = (await conflict.json()) as Record<string, unknown>;
    assertErrorShape(c, 'conflict', 'CONCURRENT_MODIFICATION');
    assert.doesNotMatch(JSON.stringify(c), /credits-acct_1/);
    // A command whose read-your-writes wait timed out: recorded, not yet readable; not a 500.
    const lagging = await fetch(`${api.url}/test/lagging`);
    assert.equal(lagging.status, 503);
    assert.equal(lagging.headers.get('retry-after'), '1');
    const l = await lagging.text();
    assertErrorShape(JSON.parse(l) as Record<string, unknown>, 'service_unavailable', 'READ_MODEL_BEHIND');
    assert.doesNotMatch(l, /repositories|position/);
    const down = await fetch(`${api.url}/test/unavailable`);
    assert.equal(down.status, 503);
    const d = await down.text();
    assertErrorShape(JSON.parse(d) as Record<string, unknown>, 'service_unavailable', 'STORE_UNAVAILABLE');
    assert.doesNotMatch(d, /10\.0\.0\.5/);
  });

  it('answers errors under /api/v1 as RFC 9457 problem+json with the same fields', async () => {
    const notFound = await fetch(`${api.url}/api/v1/nothing-here`);
    assert.equal(notFound.status, 404);
    assert.match(notFound.headers.get('content-type') ?? '', /^application\/problem\+json/);
    const p = (await notFound.json()) as Record<string, unknown>;
    assertErrorShape(p, 'not_found', 'ROUTE_NOT_FOUND');
    assert.equal(p.status, 404);
    assert.equal(p.title, 'Not Found');
    assert.equal(typeof p.type, 'string');

    const invalid = await fetch(`${api.url}/api/v1/test/things`, json({ nope: 1 }));
    assert.equal(invalid.status, 400);
    assert.match(invalid.headers.get('content-type') ?? '', /^application\/problem\+json/);
    const v = (await invalid.json()) as Record<string, unknown>;
    assertErrorShape(v, 'validation_failed', 'VALIDATION_FAILED');
    assert.equal(v.status, 400);
    assert.ok(Array.isArray(v.details));

    const payment = await fetch(`${api.url}/api/v1/test/payment`);
    assert.equal(payment.status, 402);
    assert.equal(payment.headers.get('x-credits-required'), '2.50');
    const pay = (await payment.json()) as Record<string, unknown>;
    assert.equal(pay.price_usd, 2.5);
    assert.equal(pay.status, 402);

    const plain = await fetch(`${api.url}/v1/nothing-here`);
    assert.match(plain.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(((await plain.json()) as Record<string, unknown>).status, undefined);
  });

  it('keeps answering garbage in the documented shape', async () => {
    const badUrl = await fetch(`${api.url}/%E0%A4%A`);
    assert.equal(badUrl.status, 400);
    assertErrorShape((await badUrl.json()) as Record<string, unknown>, 'bad_request', 'MALFORMED_URL');
    const notHttp = await raw(api.url, 'GARBAGE\r\n\r\n');
    assert.match(notHttp, /^HTTP\/1\.1 400 /);
    assertErrorShape(
      JSON.parse(notHttp.split('\r\n\r\n')[1]!) as Record<string, unknown>,
      'bad_request',
      'MALFORMED_REQUEST',
    );
    const wrongMethod = await fetch(`${api.url}/health`, { method: 'DELETE' });
    assert.equal(wrongMethod.status, 405);
    assert.equal(wrongMethod.headers.get('allow'), 'GET, HEAD');
    assertErrorShape((await wrongMethod.json()) as Record<string, unknown>, 'method_not_allowed', 'METHOD_NOT_ALLOWED');
    const health = await fetch(`${api.url}/health`);
    assert.equal(health.status, 200);
  });

  it("answers with the server's own x-request-id, whatever the client sent", async () => {
    const ids = new Set<string>();
    const sentHeaders: Array<Record<string, string>> = [
      { 'x-request-id': 'trace-123' },
      { 'x-request-id': 'bad id\twith spaces' },
      {},
    ];
    for (const sent of sentHeaders) {
      const res = await fetch(`${api.url}/health`, { headers: sent });
      const id = res.headers.get('x-request-id') ?? '';
      assert.match(id, /^[0-9a-f-]{36}$/, JSON.stringify(sent));
      ids.add(id);
    }
    assert.equal(ids.size, 3);
  });

  it('serves the OpenAPI 3.1 document as YAML and JSON, structurally valid, with every request schema strict', async () => {
    const res = await fetch(`${api.url}/docs/api/openapi.v1.yaml`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/yaml/);
    const text = await res.text();
    const doc = parse(text) as Record<string, any>;
    assert.deepEqual(checkOpenApiDocument(doc), []);
    // And against the official OpenAPI 3.1 meta-schema.
    const validator = new Validator();
    const verdict = await validator.validate(structuredClone(doc));
    assert.equal(validator.version, '3.1');
    assert.deepEqual(verdict.errors ?? [], []);
    assert.equal(verdict.valid, true);
    assert.deepEqual(findNonStrictObjects(doc), []);
    assert.match(doc.openapi, /^3\.1\./);
    const create = doc.paths['/test/things'].post;
    assert.equal(create.requestBody.required, true);
    assert.equal(create.requestBody.content['application/json'].schema.additionalProperties, false);
    assert.deepEqual(create.security, [{ bearer: [] }]);
    const read = doc.paths['/test/things/{id}'].get;
    assert.deepEqual(read.parameters.map((p: { in: string; name: string }) => `${p.in}:${p.name}`).sort(), [
      'path:id',
      'query:limit',
    ]);
    assert.ok(doc.paths['/health'].get.responses['200']);
    assert.ok(doc.components.securitySchemes.bearer);
    assert.ok(doc.components.securitySchemes.apiKey);
    assert.ok(doc.paths['/api/v1/test/things'].post.responses['400'].$ref.endsWith('ProblemValidationFailed'));

    const asJson = await fetch(`${api.url}/docs/api/openapi.v1.json`);
    assert.equal(asJson.status, 200);
    assert.deepEqual(await asJson.json(), doc);
  });

  it('serves the interactive reference page and its assets locally', async () => {
    const page = await fetch(`${api.url}/docs/api`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    const html = await page.text();
    assert.match(html, /swagger-ui-bundle\.js/);
    assert.doesNotMatch(html, /https?:\/\//);
    for (const asset of ['swagger-ui-bundle.js', 'swagger-ui.css', 'swagger-ui-standalone-preset.js', 'init.js']) {
      const res = await fetch(`${api.url}/docs/api/assets/${asset}`);
      assert.equal(res.status, 200, asset);
      assert.ok((await res.arrayBuffer()).byteLength > 0, asset);
    }
    const missing = await fetch(`${api.url}/docs/api/assets/..%2Fpackage.json`);
    assert.equal(missing.status, 404);
  });
});
