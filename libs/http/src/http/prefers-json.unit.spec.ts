import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { prefersJson } from './prefers-json.js';

describe('prefersJson', () => {
  it('a page or JSON (billing links): JSON when listed before the page or without one; no JSON, no JSON', () => {
    const page = { over: 'text/html' };
    assert.equal(prefersJson('application/json', page), true);
    assert.equal(prefersJson('application/problem+json', page), true);
    assert.equal(prefersJson('application/json, text/html', page), true);
    assert.equal(prefersJson(['text/html', 'application/json;q=0.9'], page), false);
    assert.equal(prefersJson('text/html,application/xhtml+xml,*/*;q=0.8', page), false);
    assert.equal(prefersJson(undefined, page), false);
  });

  it('an event stream or JSON (MCP): JSON unless the stream comes first; naming neither is JSON', () => {
    const stream = { over: 'text/event-stream', otherwise: true };
    assert.equal(prefersJson('application/json, text/event-stream', stream), true);
    assert.equal(prefersJson('Text/Event-Stream, application/json', stream), false);
    assert.equal(prefersJson('text/event-stream', stream), false);
    assert.equal(prefersJson(undefined, stream), true);
    assert.equal(prefersJson('*/*', stream), true);
  });
});
