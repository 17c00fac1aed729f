import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { batchRefusal, originRefusal, refusalBody } from './mcp-request.policy.js';

const config = (over: { publicUrl?: string; allowedOrigins?: string[]; allowedHosts?: string[] } = {}) => ({
  publicUrl: over.publicUrl,
  allowedHosts: over.allowedHosts ?? ['localhost', '127.0.0.1', '::1'],
  port: 3000,
  mcp: { anonymousPerMinute: 300, maxBatch: 20, allowedOrigins: over.allowedOrigins ?? [] },
});
const request = (headers: Record<string, string>) => ({ protocol: 'http', host: headers.host, headers });
const code = (r: ReturnType<typeof originRefusal>) => r?.code;

describe('originRefusal: the Origin must be the service’s; with SVC_PUBLIC_URL the Host must name it', () => {
  it('without SVC_PUBLIC_URL: no Origin, or the origin links are built from, or an allowed one', () => {
    assert.equal(originRefusal(request({ host: 'evil.example' }), config()), undefined, 'no Origin: not a browser');
    assert.equal(
      originRefusal(request({ host: '127.0.0.1:3000', origin: 'http://127.0.0.1:3000' }), config()),
      undefined,
    );
    assert.equal(
      originRefusal(
        request({ host: '127.0.0.1:3000', origin: 'http://app.example' }),
        config({ allowedOrigins: ['http://app.example'] }),
      ),
      undefined,
    );
    for (const origin of [
      'http://evil.example',
      'null',
      'http://127.0.0.1:3001',
      'https://127.0.0.1:3000',
      'not a url',
    ])
      assert.equal(
        code(originRefusal(request({ host: '127.0.0.1:3000', origin }), config())),
        'ORIGIN_NOT_ALLOWED',
        origin,
      );
    // A rebound name is not an allowed host: the service's own origin is then http://localhost:3000.
    assert.equal(
      code(originRefusal(request({ host: 'evil.example:3000', origin: 'http://evil.example:3000' }), config())),
      'ORIGIN_NOT_ALLOWED',
    );
  });

  it('with SVC_PUBLIC_URL: its origin; the Host its name (any port), a loopback name or SVC_ALLOWED_HOSTS', () => {
    const pub = config({ publicUrl: 'https://data.example.com', allowedHosts: ['api.internal'] });
    for (const host of [
      'data.example.com',
      'DATA.example.com:8443',
      'localhost:3000',
      '[::1]:3000',
      'api.internal:3000',
    ])
      assert.equal(originRefusal(request({ host }), pub), undefined, host);
    assert.equal(
      originRefusal(request({ host: 'data.example.com', origin: 'https://data.example.com:443' }), pub),
      undefined,
    );
    for (const host of ['evil.example', 'data.example.com.evil.example', 'data.example.com/x', ''])
      assert.equal(code(originRefusal(request({ host }), pub)), 'HOST_NOT_ALLOWED', host);
    assert.equal(
      code(originRefusal(request({ host: 'data.example.com', origin: 'http://data.example.com' }), pub)),
      'ORIGIN_NOT_ALLOWED',
      'another scheme is another origin',
    );
  });

  it('answers a JSON-RPC error with no id, the catalogue code in data', () => {
    const refusal = originRefusal(request({ host: 'x', origin: 'http://evil.example' }), config())!;
    assert.equal(refusal.status, 403);
    assert.deepEqual(JSON.parse(refusalBody(refusal)), {
      jsonrpc: '2.0',
      id: null,
      error: { code: -32000, message: refusal.message, data: { status: 403, code: 'ORIGIN_NOT_ALLOWED' } },
    });
  });
});

describe('batchRefusal: batches only before 2025-06-18, and at most SVC_MCP_MAX_BATCH messages', () => {
  const list = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list' });
  it('takes a single message and a small batch of an older or unnamed version', () => {
    assert.equal(batchRefusal(list(1), { 'mcp-protocol-version': '2025-11-25' }, 20), undefined);
    assert.equal(batchRefusal([list(1), list(2)], {}, 20), undefined);
    assert.equal(batchRefusal([list(1), list(2)], { 'mcp-protocol-version': '2025-03-26' }, 20), undefined);
    assert.equal(batchRefusal([list(1), list(2)], {}, 2), undefined);
  });

  it('refuses a batch under a version without batches (header or initialize), and an oversize one', () => {
    for (const version of ['2025-06-18', '2025-11-25', '2026-07-01'])
      assert.equal(batchRefusal([list(1)], { 'mcp-protocol-version': version }, 20)?.code, 'BATCH_NOT_SUPPORTED');
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18' } };
    assert.equal(batchRefusal([init, list(2)], {}, 20)?.code, 'BATCH_NOT_SUPPORTED');
    const big = batchRefusal([list(1), list(2), list(3)], {}, 2);
    assert.equal(big?.code, 'BATCH_TOO_LARGE');
    assert.equal(big?.status, 400);
    assert.equal(JSON.parse(refusalBody(big!)).error.code, -32600, 'JSON-RPC Invalid Request');
  });
});
