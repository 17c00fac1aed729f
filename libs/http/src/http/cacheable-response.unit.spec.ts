import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cacheableDocument, etagOf, ifNoneMatchHits, sendCacheable } from './cacheable-response.js';

function recordingReply() {
  const sent = { status: 0, headers: {} as Record<string, string>, body: undefined as string | undefined };
  const reply = {
    code(status: number) {
      sent.status = status;
      return reply;
    },
    header(name: string, value: string) {
      sent.headers[name] = value;
      return reply;
    },
    send(body?: string) {
      sent.body = body;
    },
  };
  return { reply, sent };
}

describe('cacheable documents', () => {
  it('tags equal bodies alike and different bodies apart (strong, quoted)', () => {
    assert.equal(etagOf('a'), etagOf(Buffer.from('a')));
    assert.notEqual(etagOf('a'), etagOf('b'));
    assert.match(etagOf('a'), /^"[A-Za-z0-9_-]{27}"$/);
  });

  it('If-None-Match: the tag, a list holding it, its weak form and * match; another tag does not', () => {
    const tag = etagOf('body');
    assert.equal(ifNoneMatchHits(undefined, tag), false);
    assert.equal(ifNoneMatchHits(tag, tag), true);
    assert.equal(ifNoneMatchHits(`"x", ${tag}`, tag), true);
    assert.equal(ifNoneMatchHits(`W/${tag}`, tag), true);
    assert.equal(ifNoneMatchHits('*', tag), true);
    assert.equal(ifNoneMatchHits(['"x"', tag], tag), true);
    assert.equal(ifNoneMatchHits('"x"', tag), false);
  });

  it('answers 200 with the body and its type, or 304 without a body; ETag and Cache-Control on both', () => {
    const doc = cacheableDocument('hello', 'text/plain; charset=utf-8');
    const fresh = recordingReply();
    sendCacheable({ headers: {} }, fresh.reply, doc);
    assert.deepEqual(fresh.sent, {
      status: 200,
      headers: { etag: doc.etag, 'cache-control': 'public, max-age=300', 'content-type': 'text/plain; charset=utf-8' },
      body: 'hello',
    });
    const cached = recordingReply();
    sendCacheable({ headers: { 'if-none-match': doc.etag } }, cached.reply, doc);
    assert.deepEqual(cached.sent, {
      status: 304,
      headers: { etag: doc.etag, 'cache-control': 'public, max-age=300' },
      body: undefined,
    });
  });
});
