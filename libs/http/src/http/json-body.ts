import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { RawServerDefault } from 'fastify';
import { BODY_LIMIT_BYTES } from './error-response.js';

/**
 * `Content-Type: application/json` with an empty body is a request without a body: common clients
 * set the content type on every request, a DELETE included. The route then sees no body (400
 * VALIDATION_FAILED where one is required, nothing where none is) instead of Fastify's 400 for
 * an empty JSON body. A non-empty body goes to Fastify's own JSON parser (its prototype-poisoning
 * checks included): malformed JSON is still 400 MALFORMED_JSON. Registered through Nest's
 * `useBodyParser`, so the adapter does not add its default JSON parser beside it.
 */
export function acceptEmptyJsonBodies(app: NestFastifyApplication): void {
  const fastify = app.getHttpAdapter().getInstance();
  const config = fastify.initialConfig;
  const parse = fastify.getDefaultJsonParser(
    config.onProtoPoisoning ?? 'error',
    config.onConstructorPoisoning ?? 'error',
  );
  app.useBodyParser<RawServerDefault>('application/json', { bodyLimit: BODY_LIMIT_BYTES }, (request, body, done) => {
    if (body.length === 0) {
      done(null, undefined);
      return;
    }
    void parse(request, body.toString('utf8'), done);
  });
}
