import type { OperationResponse } from '../openapi/operation.metadata.js';
import { createHash } from 'node:crypto';

/** Public documents that change only with a deploy or a configuration change: caches may keep them five minutes. */
export const PUBLIC_DOCUMENT_CACHE_CONTROL = 'public, max-age=300';

/** A fixed body with what a conditional GET needs. */
export interface CacheableDocument {
  body: string;
  contentType: string;
  /** Strong entity tag, quoted (`etagOf`). */
  etag: string;
}

/** A strong ETag from the bytes of the body: equal bodies, equal tags, across processes. */
export function etagOf(body: string | Buffer): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

export function cacheableDocument(body: string, contentType: string): CacheableDocument {
  return { body, contentType, etag: etagOf(body) };
}

/**
 * Whether an If-None-Match header names this tag (RFC 9110 §13.1.2: weak comparison, `*`
 * matches any current representation).
 */
export function ifNoneMatchHits(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  const tags = (Array.isArray(header) ? header.join(',') : header).split(',').map(bare);
  return tags.includes('*') || tags.includes(bare(etag));
}

interface ConditionalRequest {
  headers: Record<string, string | string[] | undefined>;
}

interface CacheableReply {
  code(status: number): CacheableReply;
  header(name: string, value: string): CacheableReply;
  send(body?: string): unknown;
}

/**
 * Answers a GET (or HEAD) for a fixed document: 200 with the body, or 304 without one when the
 * client's If-None-Match already names it; ETag and Cache-Control on both.
 */
export function sendCacheable(
  request: ConditionalRequest,
  reply: CacheableReply,
  document: CacheableDocument,
  cacheControl = PUBLIC_DOCUMENT_CACHE_CONTROL,
): void {
  reply.header('etag', document.etag).header('cache-control', cacheControl);
  if (ifNoneMatchHits(request.headers['if-none-match'], document.etag)) {
    reply.code(304).send();
    return;
  }
  reply.code(200).header('content-type', document.contentType).send(document.body);
}

/** The OpenAPI answers of a route that sends a cacheable document: 200 with its ETag, 304. */
export function cacheableResponses(
  description: string,
  content: { contentType: string; schema?: OperationResponse['schema'] },
): Record<number, OperationResponse> {
  const headers = {
    ETag: { description: 'Send it back in If-None-Match: 304 while the document is unchanged.' },
    'Cache-Control': { description: 'public, max-age=300.' },
  };
  return {
    200: {
      description,
      contentType: content.contentType,
      ...(content.schema ? { schema: content.schema } : {}),
      headers,
    },
    304: { description: 'Not modified (If-None-Match matched the ETag); no body.', headers },
  };
}
