import http from 'node:http';

/** A request as the chaos scenarios write it. */
export interface WireRequest {
  method: string;
  /** Path and query, as written (fetch's URL parser normalises it; so does this). */
  target: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

export interface WireAnswer {
  status: number;
  headers: Headers;
  /** The body decoded as fetch's `text()` decodes it (UTF-8, a leading BOM dropped). */
  text: string;
}

/** The headers fetch adds to a request that does not set them (Node 20's undici). */
const FETCH_DEFAULTS: Readonly<Record<string, string>> = {
  accept: '*/*',
  'accept-language': '*',
  'sec-fetch-mode': 'cors',
  'user-agent': 'node',
  'accept-encoding': 'gzip, deflate',
};

/** A request with one of these gets fetch's `no-store` cache mode, which adds two headers. */
const CONDITIONAL = ['if-modified-since', 'if-none-match', 'if-unmodified-since', 'if-match', 'if-range'];

/** An error that reads like fetch's: `TypeError` with a cause that has a code. */
function failure(name: string, code: string, message: string): Error {
  const error = new Error(message, { cause: { code, message } });
  error.name = name;
  return error;
}

/**
 * The requests of the chaos scenarios, sent over node:http the way fetch would send them: the
 * server sees the same request line, headers and body bytes (http-client.int.spec.ts holds the
 * two side by side), for about half the CPU per request. The scenarios send thousands of small
 * requests, and fetch's web streams and promises cost more than the server's answer to most.
 */
export class HttpClient {
  private readonly agent = new http.Agent({ keepAlive: true });

  constructor(private readonly baseUrl: string) {}

  /**
   * Sends the request (redirects not followed, like `redirect: 'manual'`) and reads the whole
   * answer; rejects when no complete answer came, as fetch does, with the socket's error code.
   */
  send(request: WireRequest, timeoutMs: number): Promise<WireAnswer> {
    const url = new URL(`${this.baseUrl}${request.target}`);
    const headers: Record<string, string> = { ...FETCH_DEFAULTS };
    for (const [name, value] of Object.entries(request.headers)) headers[name.toLowerCase()] = value;
    const body = typeof request.body === 'string' ? Buffer.from(request.body, 'utf8') : request.body;
    if (body !== undefined && (request.method === 'GET' || request.method === 'HEAD'))
      return Promise.reject(failure('TypeError', 'ERR_BODY', 'Request with GET/HEAD method cannot have body.'));
    if (CONDITIONAL.some((name) => name in headers)) {
      headers['cache-control'] ??= 'no-cache';
      headers.pragma ??= 'no-cache';
    }
    if ('range' in headers && !('accept-encoding' in request.headers)) headers['accept-encoding'] = 'identity';
    // node:http frames a DELETE's body only with an explicit length. fetch sends no length for an
    // empty body unless the method expects one (POST, PUT, PATCH), and `end()` sends 0 for those.
    if (body !== undefined && body.length > 0) headers['content-length'] = String(body.length);
    return new Promise<WireAnswer>((resolve, reject) => {
      let done = false;
      const finish = (error: Error | null, answer?: WireAnswer) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        if (error) reject(error);
        else resolve(answer!);
      };
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          method: request.method,
          path: `${url.pathname}${url.search}`,
          headers,
          agent: this.agent,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', (error: NodeJS.ErrnoException) =>
            finish(failure('TypeError', error.code ?? 'ECONNRESET', error.message)),
          );
          res.on('close', () => {
            if (!res.complete) finish(failure('TypeError', 'ECONNRESET', 'the answer was cut short'));
          });
          res.on('end', () => {
            const answerHeaders = new Headers();
            for (let i = 0; i + 1 < res.rawHeaders.length; i += 2)
              answerHeaders.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
            const text = new TextDecoder().decode(Buffer.concat(chunks));
            finish(null, { status: res.statusCode ?? 0, headers: answerHeaders, text });
          });
        },
      );
      // After a complete answer a late socket error (the server closed while we still wrote an
      // over-limit body) changes nothing; before it, it is the failure.
      req.on('error', (error: NodeJS.ErrnoException) =>
        finish(failure('TypeError', error.code ?? 'ECONNRESET', error.message)),
      );
      // Set once the request exists: node:http throws at once on a header value it refuses.
      const timer = setTimeout(() => {
        finish(failure('TimeoutError', 'TIMEOUT', `no answer within ${timeoutMs} ms`));
        req.destroy();
      }, timeoutMs);
      req.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
