import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { HttpClient, type WireRequest } from './http-client.js';

interface Seen {
  method: string;
  url: string;
  /** Header lines as `name: value`, sorted (the two clients order them differently). */
  headers: string[];
  body: string;
}

/** What the server answers to `/answer/<name>…`; anything else gets a small JSON 200. */
const ANSWERS: Record<string, (res: http.ServerResponse) => void> = {
  redirect: (res) => res.writeHead(303, { location: '/elsewhere' }).end(),
  bom: (res) => res.writeHead(200, { 'content-type': 'application/json' }).end('\uFEFF{"a":1}'),
  repeated: (res) =>
    res
      .writeHead(200, [
        ['set-cookie', 'a=1'],
        ['set-cookie', 'b=2'],
        ['x-twice', 'one'],
        ['x-twice', 'two'],
      ])
      .end('twice'),
  'no-content': (res) => res.writeHead(204).end(),
  'bad-utf8': (res) => res.writeHead(400, { 'content-type': 'text/plain' }).end(Buffer.from([0x61, 0xff, 0xfe, 0x62])),
  hangup: (res) => res.socket?.destroy(),
};

/**
 * The chaos scenarios send their requests through HttpClient rather than fetch, for CPU: the
 * server must see the same request either way, and the scenarios must read the same answer.
 */
describe('chaos HttpClient: the request fetch would send, the answer fetch would read', () => {
  let server: http.Server;
  let base: string;
  let client: HttpClient;
  const seen: Seen[] = [];

  before(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const headers: string[] = [];
        for (let i = 0; i < req.rawHeaders.length; i += 2)
          headers.push(`${req.rawHeaders[i]!.toLowerCase()}: ${req.rawHeaders[i + 1]}`);
        seen.push({
          method: req.method!,
          url: req.url!,
          headers: headers.sort(),
          body: Buffer.concat(chunks).toString('hex'),
        });
        const answer = ANSWERS[/^\/answer\/([a-z0-9-]+)/.exec(req.url!)?.[1] ?? ''];
        if (answer) answer(res);
        else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    client = new HttpClient(base);
  });
  after(async () => {
    client.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  /** What the server saw and what each client read, fetch first (as chaos-api.ts sent before). */
  async function both(request: WireRequest) {
    const outcome = async (send: () => Promise<{ status: number; headers: Headers; text: string }>) => {
      const from = seen.length;
      try {
        const answer = await send();
        return {
          answer: { status: answer.status, headers: [...answer.headers], text: answer.text },
          seen: seen.slice(from),
        };
      } catch (error) {
        return { failed: (error as Error).name, seen: seen.slice(from) };
      }
    };
    const viaFetch = await outcome(async () => {
      const res = await fetch(`${base}${request.target}`, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        redirect: 'manual',
      });
      return { status: res.status, headers: res.headers, text: await res.text() };
    });
    const viaClient = await outcome(() => client.send(request, 5_000));
    return { viaFetch, viaClient };
  }

  const json = { 'content-type': 'application/json' };
  const cases: Array<[string, WireRequest]> = [
    [
      'dot segments, an encoded dot segment and a fragment',
      { method: 'GET', target: '/a/b/../c/%2e%2e/d?x=1#frag', headers: {} },
    ],
    [
      'raw spaces, non-ASCII and a backslash in the target',
      { method: 'GET', target: '/p\\q/é x?a=b c&d=é', headers: {} },
    ],
    ['%00 and a trailing ..', { method: 'DELETE', target: '/v1/x/%00/..', headers: {} }],
    ['POST without a body', { method: 'POST', target: '/empty', headers: {} }],
    ['PUT without a body', { method: 'PUT', target: '/empty', headers: {} }],
    ['PATCH without a body', { method: 'PATCH', target: '/empty', headers: {} }],
    ['DELETE without a body', { method: 'DELETE', target: '/empty', headers: {} }],
    [
      'a JSON body with an emoji and a lone surrogate',
      { method: 'POST', target: '/j', headers: json, body: '{"a":"😀\uD800"}' },
    ],
    ['a DELETE with a body', { method: 'DELETE', target: '/d', headers: json, body: '{"a":true}' }],
    ['a DELETE with an empty body', { method: 'DELETE', target: '/d', headers: json, body: '' }],
    ['a POST with an empty body', { method: 'POST', target: '/p', headers: json, body: '' }],
    [
      'bytes without a content-type',
      { method: 'POST', target: '/b', headers: {}, body: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]) },
    ],
    [
      'a string body with an odd content-type',
      { method: 'PUT', target: '/s', headers: { 'content-type': ';;;' }, body: 'x' },
    ],
    [
      'odd header values and names',
      {
        method: 'GET',
        target: '/h',
        headers: {
          'idempotency-key': '',
          'x-latin': '\u00ff\u00fe latin-1',
          'x-padded': ' \tpadded\t ',
          'X-Api-Key': 'Mixed-Case',
          accept: 'application/json, text/event-stream',
        },
      },
    ],
    ['a conditional request', { method: 'PUT', target: '/c', headers: { ...json, 'if-match': '"1"' }, body: '{}' }],
    [
      'a conditional request that sets its own cache-control',
      { method: 'GET', target: '/c', headers: { 'if-none-match': '*', 'cache-control': 'max-age=0' } },
    ],
    ['a range request', { method: 'GET', target: '/r', headers: { range: 'bytes=0-1' } }],
    ['a GET with a body (refused by both)', { method: 'GET', target: '/g', headers: json, body: '{}' }],
    ['a header value fetch refuses', { method: 'GET', target: '/h', headers: { 'x-bad': 'line\nbreak' } }],
    ['a 303 (not followed)', { method: 'GET', target: '/answer/redirect', headers: {} }],
    ['a body that starts with a BOM', { method: 'GET', target: '/answer/bom', headers: {} }],
    ['repeated answer headers', { method: 'GET', target: '/answer/repeated', headers: {} }],
    ['a 204', { method: 'DELETE', target: '/answer/no-content', headers: {} }],
    ['an answer that is not UTF-8', { method: 'GET', target: '/answer/bad-utf8', headers: {} }],
  ];
  for (const [what, request] of cases) {
    it(what, async () => {
      const { viaFetch, viaClient } = await both(request);
      assert.deepEqual(viaClient, viaFetch);
    });
  }

  it('a connection closed without an answer fails both, and nothing else', async () => {
    const { viaFetch, viaClient } = await both({ method: 'GET', target: '/answer/hangup', headers: {} });
    assert.equal(viaFetch.failed, 'TypeError');
    assert.equal(viaClient.failed, 'TypeError');
    assert.deepEqual(viaClient.seen, viaFetch.seen);
  });
});
