import assert from 'node:assert/strict';
import { request } from 'node:http';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startTestApi, type TestApi } from './support/test-api.js';

/** Opens a raw connection and sends `head` one byte every `everyMs`; resolves when the server closes it. */
function slowClient(
  url: string,
  head: string,
  everyMs: number,
): Promise<{ closedAfterMs: number; bytesSent: number; answer: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(Number(port), hostname);
    let sent = 0;
    let answer = '';
    const timer = setInterval(() => {
      if (sent < head.length && socket.writable) socket.write(head[sent++]!);
    }, everyMs);
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ closedAfterMs: Date.now() - started, bytesSent: sent, answer });
    });
    setTimeout(() => {
      clearInterval(timer);
      socket.destroy();
      reject(new Error(`the server kept the slow connection open for ${Date.now() - started} ms (${sent} bytes sent)`));
    }, 8_000).unref();
  });
}

describe('HTTP server limits (slow clients are cut off)', () => {
  let api: TestApi;

  before(async () => {
    api = await startTestApi({ env: { SVC_HTTP_HEADERS_TIMEOUT_MS: '1000', SVC_HTTP_REQUEST_TIMEOUT_MS: '2000' } });
  });
  after(async () => {
    await api.close();
  });

  it('cuts off a client that sends one header byte at a time (slowloris) once the headers timeout passes', async () => {
    const head = `GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ${'a'.repeat(200)}\r\n\r\n`;
    const { closedAfterMs, bytesSent, answer } = await slowClient(api.url, head, 100);
    assert.ok(bytesSent < head.length, 'cut off before the headers were complete');
    // ~1.0–1.25 s (1 s timeout, checked every 250 ms); the upper bound leaves room for a starved CI
    // process and is still far below the ~26 s the whole header takes at this pace.
    assert.ok(closedAfterMs >= 900 && closedAfterMs < 7_000, `closed after ${closedAfterMs} ms`);
    assert.match(answer, /^HTTP\/1\.1 408 /, 'answered 408 before closing');
  });

  it('keeps serving ordinary requests meanwhile', async () => {
    assert.equal((await fetch(`${api.url}/health`)).status, 200);
  });

  it('states its limits on the Node server', () => {
    const server = api.app.getHttpServer();
    assert.equal(server.headersTimeout, 1000);
    assert.equal(server.requestTimeout, 2000);
    assert.equal(server.keepAliveTimeout, 72_000);
  });
});

/** A POST with a Host header of our choosing (fetch would send the URL's). */
function postWithHost(url: string, path: string, host: string): Promise<{ status: number; body: any }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, method: 'POST', headers: { host, 'content-length': '0' } }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('links the service returns never follow a forged Host header (SVC_PUBLIC_URL unset)', () => {
  let api: TestApi;

  before(async () => {
    api = await startTestApi();
  });
  after(async () => {
    await api.close();
  });

  it('a checkout link is built on an allowed host only: a forged Host gets localhost, not the attacker', async () => {
    const forged = await postWithHost(api.url, '/api/v1/agents/pay', 'attacker.example');
    assert.equal(forged.status, 201);
    assert.ok(!JSON.stringify(forged.body).includes('attacker.example'), 'no link to the forged host');
    assert.match(forged.body.starter_checkout.url, /^http:\/\/localhost\/api\/v1\/billing\/sandbox\/checkout\/cs_/);
    const { port } = new URL(api.url);
    const allowed = await postWithHost(api.url, '/api/v1/agents/pay', `127.0.0.1:${port}`);
    assert.ok(
      allowed.body.starter_checkout.url.startsWith(`http://127.0.0.1:${port}/api/v1/billing/sandbox/checkout/cs_`),
    );
  });
});
