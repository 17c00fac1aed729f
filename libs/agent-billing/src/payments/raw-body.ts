import { Readable } from 'node:stream';
import { BODY_LIMIT_BYTES } from '#http';
import { Errors } from '#kernel';

/** Route config flag (`@RouteConfig({rawBody: true})`): keep the request's exact bytes as `request.rawBody`. */
export const RAW_BODY_CONFIG = { rawBody: true } as const;

interface FastifyLike {
  addHook(
    name: 'preParsing',
    hook: (
      request: RawBodyRequest,
      reply: unknown,
      payload: Readable,
      done: (error: Error | null, payload?: Readable) => void,
    ) => void,
  ): unknown;
}

export interface RawBodyRequest {
  rawBody?: Buffer;
  routeOptions?: { config?: { rawBody?: boolean } };
}

/**
 * Keeps the exact request bytes for the routes flagged with RAW_BODY_CONFIG only (the Stripe
 * webhook: its signature covers the raw body, and re-serialised JSON would not match). Every
 * other route keeps Fastify's streaming parse untouched.
 */
export function installRawBodyHook(fastify: FastifyLike): void {
  fastify.addHook('preParsing', (request, _reply, payload, done) => {
    if (request.routeOptions?.config?.rawBody !== true) return done(null, payload);
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    payload.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > BODY_LIMIT_BYTES) {
        failed = true;
        payload.destroy();
        done(Errors.payloadTooLarge(BODY_LIMIT_BYTES));
        return;
      }
      chunks.push(chunk);
    });
    payload.on('error', (error) => {
      if (failed) return;
      failed = true;
      done(error);
    });
    payload.on('end', () => {
      if (failed) return;
      const raw = Buffer.concat(chunks);
      request.rawBody = raw;
      const replay = Readable.from([raw]) as Readable & { receivedEncodedLength?: number };
      replay.receivedEncodedLength = raw.length;
      done(null, replay);
    });
  });
}
