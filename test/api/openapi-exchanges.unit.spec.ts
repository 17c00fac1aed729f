import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { buildOpenApiDocument } from '#http';
import { OpenApiExchangeValidator } from './support/openapi-exchanges.js';

const doc = buildOpenApiDocument({ title: 't', version: '1' }, [
  {
    method: 'POST',
    path: '/api/v1/things/:id',
    handlerName: 'C_post',
    spec: {
      summary: 'create',
      operationId: 'createThing',
      body: z.strictObject({ name: z.string() }),
      responses: {
        201: { description: 'ok', schema: z.object({ id: z.string(), price_usd: z.number().multipleOf(0.01) }) },
        404: { description: 'no such thing' },
      },
      security: ['apiKey'],
    },
  },
]);
const validator = OpenApiExchangeValidator.for(doc);
const exchange = {
  method: 'POST',
  path: '/api/v1/things/t_1',
  route: '/api/v1/things/:id',
  status: 201,
  contentType: 'application/json; charset=utf-8',
  body: JSON.stringify({ id: 't_1', price_usd: 12.34 }),
  requestContentType: 'application/json',
  requestBody: { name: 'a' },
};

describe('OpenApiExchangeValidator', () => {
  it('finds nothing when the exchange is what the document says (cents as dollars included)', () => {
    assert.deepEqual(validator.check(exchange), []);
    assert.deepEqual(validator.check({ ...exchange, route: undefined }), [], 'found by path too');
  });

  it('names the operation, the status and the schema path of a body that disagrees', () => {
    const [problem, ...rest] = validator.check({ ...exchange, body: JSON.stringify({ id: 7, price_usd: 1 }) });
    assert.equal(rest.length, 0);
    assert.match(problem!, /^createThing \(POST \/api\/v1\/things\/t_1 → 201\): response \/id must be string/);
    assert.match(
      problem!,
      /schema #\/paths\/~1api~1v1~1things~1\{id\}\/post\/responses\/201\/content\/application~1json\/schema\/properties\/id\/type/,
    );
  });

  it('reports a status the operation does not list, a media type it does not document, a body where it documents none', () => {
    assert.match(validator.check({ ...exchange, status: 409 })[0]!, /createThing .* status 409 is not documented/);
    assert.match(
      validator.check({ ...exchange, status: 404, contentType: 'text/html' })[0]!,
      /Content-Type text\/html is not one of application\/problem\+json/,
    );
    assert.deepEqual(
      validator.check({
        ...exchange,
        status: 500,
        contentType: 'application/problem+json',
        body: '{"error":"x","message":"m","code":"C","type":"t","title":"T","status":500}',
      }),
      [],
      '5xx falls to default',
    );
  });

  it('reports a request the document calls invalid that the server accepted, and not one it refused', () => {
    assert.match(
      validator.check({ ...exchange, requestBody: { name: 'a', extra: 1 } })[0]!,
      /accepted request \(root\) must NOT have additional properties/,
    );
    const refused = { ...exchange, status: 400, contentType: 'application/problem+json', requestBody: { extra: 1 } };
    assert.equal(
      validator.check({
        ...refused,
        body: '{"error":"bad_request","message":"m","code":"VALIDATION_FAILED","type":"t","title":"T","status":400}',
      }).length,
      0,
    );
  });

  it('leaves undocumented routes alone', () => {
    assert.deepEqual(validator.check({ ...exchange, route: '/nowhere', path: '/nowhere' }), []);
  });
});
