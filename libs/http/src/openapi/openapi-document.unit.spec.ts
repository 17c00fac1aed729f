import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { buildOpenApiDocument, findNonStrictObjects, operationLookup, toOpenApiPath } from './openapi-document.js';
import { checkOpenApiDocument } from './openapi-structure.js';
import type { OperationSpec } from './operation.metadata.js';

const Money = z.number().int().meta({ id: 'Cents', description: 'Integer cents.' });
const info = { title: 't', version: '1' };

function route(
  method: string,
  path: string,
  spec: OperationSpec,
  handlerName = `C_${method}${path.replace(/\W/g, '_')}`,
) {
  return { method, path, spec, handlerName };
}

describe('buildOpenApiDocument', () => {
  it('builds a structurally valid 3.1 document with named schemas hoisted into components', () => {
    const doc = buildOpenApiDocument(info, [
      route('POST', '/v1/things', {
        summary: 'create',
        body: z.strictObject({ price: Money, tags: z.array(z.string()).optional() }),
        responses: { 201: { description: 'ok', schema: z.object({ id: z.string(), price: Money }) } },
        security: ['bearer'],
      }),
      route('GET', '/v1/things/:id', { summary: 'read', responses: { 200: { description: 'ok' } } }),
      route('GET', '/api/v1/things', {
        summary: 'list',
        query: z.strictObject({ limit: z.coerce.number().int().default(20) }),
        responses: { 200: { description: 'ok' } },
      }),
    ]);
    assert.deepEqual(checkOpenApiDocument(doc), []);
    assert.equal(doc.openapi, '3.1.1');
    assert.deepEqual((doc.components.schemas as Record<string, unknown>).Cents, {
      type: 'integer',
      description: 'Integer cents.',
      minimum: -9007199254740991,
      maximum: 9007199254740991,
    });
    const post = doc.paths['/v1/things']!.post as Record<string, any>;
    assert.equal(
      post.requestBody.content['application/json'].schema.properties.price.$ref,
      '#/components/schemas/Cents',
    );
    assert.equal(post.responses['400'].$ref, '#/components/responses/ValidationFailed');
    const read = doc.paths['/v1/things/{id}']!.get as Record<string, any>;
    assert.deepEqual(read.parameters, [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }]);
    const list = doc.paths['/api/v1/things']!.get as Record<string, any>;
    assert.equal(list.responses.default.$ref, '#/components/responses/Problem');
    assert.equal(list.parameters[0].required, false);
  });

  it('says who may call every operation (public ones with an empty list) and what the shared machinery answers', () => {
    const doc = buildOpenApiDocument(info, [
      route('GET', '/api/v1/docs', { summary: 'public', description: 'd', responses: { 200: { description: 'ok' } } }),
      route('DELETE', '/v1/things/:id', {
        summary: 'keyed',
        responses: { 204: { description: 'gone' } },
        security: ['bearer'],
      }),
      route('POST', '/api/v1/mcp', {
        summary: 'optional key',
        documentedBody: {
          required: true,
          content: { 'application/json': z.looseObject({ jsonrpc: z.literal('2.0') }) },
        },
        responses: { 200: { description: 'ok' } },
        security: [{}, 'apiKey'],
      }),
    ]);
    const pub = doc.paths['/api/v1/docs']!.get as Record<string, any>;
    assert.deepEqual(pub.security, []);
    assert.deepEqual(Object.keys(pub.responses), ['200', 'default']);
    const keyed = doc.paths['/v1/things/{id}']!.delete as Record<string, any>;
    assert.deepEqual(keyed.security, [{ bearer: [] }]);
    // A body is parsed on DELETE too: malformed (400), too large (413), another media type (415).
    assert.deepEqual(Object.keys(keyed.responses).sort(), ['204', '400', '401', '413', '415', '429', 'default']);
    assert.equal(keyed.responses['401'].$ref, '#/components/responses/Unauthorized');
    const mcp = doc.paths['/api/v1/mcp']!.post as Record<string, any>;
    assert.deepEqual(mcp.security, [{}, { apiKey: [] }]);
    assert.equal(mcp.requestBody.content['application/json'].schema.properties.jsonrpc.const, '2.0');
    assert.equal(mcp.responses['401'].$ref, '#/components/responses/ProblemUnauthorized');
    // Only the shared answers in use are components.
    const only = buildOpenApiDocument(info, [
      route('GET', '/x', { summary: 'x', responses: { 200: { description: 'ok' } } }),
    ]);
    assert.equal((only.components.responses as Record<string, unknown>).Unauthorized, undefined);
    assert.ok((doc.components.responses as Record<string, unknown>).ProblemUnauthorized);
    assert.deepEqual(checkOpenApiDocument(doc), []);
  });

  it('documents every media type a response has; an error status also in the surface’s error body', () => {
    const doc = buildOpenApiDocument(info, [
      route('GET', '/api/v1/page', {
        summary: 'page',
        responses: {
          200: {
            description: 'HTML or JSON',
            contentTypes: { 'text/html': z.string(), 'application/json': z.object({ ok: z.boolean() }) },
          },
          404: { description: 'an HTML page', contentType: 'text/html' },
          406: { description: 'JSON-RPC', schema: z.object({ jsonrpc: z.literal('2.0') }) },
        },
      }),
    ]);
    const op = doc.paths['/api/v1/page']!.get as Record<string, any>;
    assert.deepEqual(Object.keys(op.responses['200'].content), ['text/html', 'application/json']);
    assert.deepEqual(Object.keys(op.responses['404'].content), ['text/html', 'application/problem+json']);
    assert.deepEqual(Object.keys(op.responses['406'].content), ['application/json', 'application/problem+json']);
  });

  it('writes a record keyed by an enum as properties, so every required name is a property', () => {
    const doc = buildOpenApiDocument(info, [
      route('GET', '/counts', {
        summary: 'counts',
        responses: { 200: { description: 'ok', schema: z.object({ n: z.record(z.enum(['a', 'b']), z.number()) }) } },
      }),
    ]);
    const schema = (doc.paths['/counts']!.get as Record<string, any>).responses['200'].content['application/json']
      .schema.properties.n;
    assert.deepEqual(Object.keys(schema.properties), ['a', 'b']);
    assert.deepEqual(schema.required, ['a', 'b']);
    assert.equal(schema.additionalProperties, false);
    assert.equal(schema.propertyNames, undefined);
  });

  it('carries license, contact and tag descriptions', () => {
    const doc = buildOpenApiDocument(
      { ...info, license: { name: 'Proprietary' }, contact: { email: 'ops@example.com' }, tags: { things: 'Things.' } },
      [route('GET', '/x', { summary: 'x', tags: ['things'], responses: { 200: { description: 'ok' } } })],
    );
    assert.deepEqual((doc.info as Record<string, unknown>).license, { name: 'Proprietary' });
    assert.deepEqual((doc.info as Record<string, unknown>).contact, { email: 'ops@example.com' });
    assert.deepEqual(doc.tags, [{ name: 'things', description: 'Things.' }]);
  });

  it('flags request objects that would accept unknown fields', () => {
    const doc = buildOpenApiDocument(info, [
      route('POST', '/x', {
        summary: 'x',
        body: z.strictObject({ inner: z.object({ a: z.string() }) }),
        responses: { 200: { description: 'ok' } },
      }),
    ]);
    assert.equal(findNonStrictObjects(doc).length, 1);
  });

  it('refuses duplicate operation ids', () => {
    const spec: OperationSpec = { summary: 's', operationId: 'same', responses: { 200: { description: 'ok' } } };
    assert.throws(
      () => buildOpenApiDocument(info, [route('GET', '/a', spec), route('GET', '/b', spec)]),
      /duplicate operationId same/,
    );
  });

  it('converts Nest paths to templates', () => {
    assert.equal(toOpenApiPath('//v1/things/:id/'), '/v1/things/{id}');
    assert.equal(toOpenApiPath('/'), '/');
  });
});

describe('operationLookup', () => {
  const ok = { 200: { description: 'ok' } };
  const doc = buildOpenApiDocument(info, [
    route('GET', '/api/v1/things/:id', { summary: 'read', operationId: 'getThing', responses: ok }),
    route('GET', '/api/v1/things/active', { summary: 'active', operationId: 'activeThings', responses: ok }),
    route('PATCH', '/api/v1/things/:id/memo', { summary: 'memo', operationId: 'updateMemo', responses: ok }),
    route('GET', '/api/v1/hidden', { summary: 'hidden', hidden: true, responses: ok }),
  ]);
  const find = operationLookup(doc);

  it('finds the operation of a concrete path by method, a literal segment before a parameter', () => {
    assert.deepEqual(find('GET', '/api/v1/things/t_1'), {
      operationId: 'getThing',
      method: 'GET',
      path: '/api/v1/things/{id}',
    });
    assert.equal(find('get', '/api/v1/things/active')?.operationId, 'activeThings');
    assert.equal(find('PATCH', '/api/v1/things/t_1/memo/')?.operationId, 'updateMemo');
  });

  it('finds nothing for another method, another shape, an empty segment or an undocumented route', () => {
    assert.equal(find('DELETE', '/api/v1/things/t_1'), undefined);
    assert.equal(find('GET', '/api/v1/things/t_1/memo'), undefined);
    assert.equal(find('GET', '/api/v1/things//memo'), undefined);
    assert.equal(find('GET', '/api/v1/hidden'), undefined);
  });
});

describe('checkOpenApiDocument', () => {
  it('reports broken references, undeclared path parameters and a wrong version', () => {
    const problems = checkOpenApiDocument({
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      paths: {
        '/a/{id}': {
          get: {
            responses: {
              200: {
                description: 'ok',
                content: { 'application/json': { schema: { $ref: '#/components/schemas/Nope' } } },
              },
            },
          },
        },
        '/b': { post: { responses: {} } },
      },
      components: {},
    });
    assert.ok(problems.some((p) => p.includes('expected 3.1.x')));
    assert.ok(problems.some((p) => p.includes('unresolved $ref #/components/schemas/Nope')));
    assert.ok(problems.some((p) => p.includes('path parameter id is not declared')));
    assert.ok(problems.some((p) => p.includes('needs at least one response')));
  });
});
