import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  /** The bytes as they arrived. */
  raw: Buffer;
  body: Record<string, any>;
  /** X-Service-Signature checked against the secret registered for the path, over the raw body, in constant time. */
  signatureValid: boolean;
}

export interface Reply {
  status: number;
  body?: string;
  headers?: Record<string, string>;
  /** Keep the request open until `release()` is called (a slow receiver, without sleeping). */
  hold?: boolean;
}

/**
 * A real local HTTP receiver, as a customer would write one: it reads the raw body, recomputes
 * `sha256=<hex HMAC-SHA256>` with the secret of that endpoint and compares in constant time
 * (spec "Webhook signatures"), answering 401 on a mismatch like the spec says.
 */
export class TestReceiver {
  readonly received: Received[] = [];
  private readonly secrets = new Map<string, string>();
  private readonly replies = new Map<string, (r: Received) => Reply>();
  private readonly held: Array<() => void> = [];
  private readonly waiters = new Set<() => void>();

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(): Promise<TestReceiver> {
    const server = createServer((req, res) => receiver.handle(req, res));
    server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const receiver = new TestReceiver(server, (server.address() as AddressInfo).port);
    return receiver;
  }

  /** An endpoint with its secret and (default 200) answers. */
  endpoint(path: string, secret: string, reply: (r: Received) => Reply = () => ({ status: 200, body: 'ok' })): string {
    this.secrets.set(path, secret);
    this.replies.set(path, reply);
    return `http://127.0.0.1:${this.port}${path}`;
  }

  reply(path: string, reply: (r: Received) => Reply): void {
    this.replies.set(path, reply);
  }

  at(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  /** Answers every held request. */
  release(): void {
    for (const r of this.held.splice(0)) r();
  }

  get heldCount(): number {
    return this.held.length;
  }

  /** Resolves when `check` holds (re-checked on every request), or fails after `timeoutMs`. */
  async until(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
    if (check()) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(wake);
        reject(new Error(`receiver: timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      const wake = () => {
        if (!check()) return;
        clearTimeout(timer);
        this.waiters.delete(wake);
        resolve();
      };
      this.waiters.add(wake);
    });
  }

  async close(): Promise<void> {
    this.release();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const path = (req.url ?? '/').split('?')[0]!;
      const secret = this.secrets.get(path);
      const header = req.headers['x-service-signature'];
      let signatureValid = false;
      if (secret !== undefined && typeof header === 'string') {
        const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`);
        const given = Buffer.from(header);
        signatureValid = given.length === expected.length && timingSafeEqual(given, expected);
      }
      let body: Record<string, any> = {};
      try {
        body = JSON.parse(raw.toString('utf8')) as Record<string, any>;
      } catch {
        // recorded as is; the test looks at `raw`
      }
      const received: Received = { path, headers: req.headers, raw, body, signatureValid };
      this.received.push(received);
      const reply: Reply = !signatureValid
        ? { status: 401, body: 'bad signature' }
        : (this.replies.get(path)?.(received) ?? { status: 404 });
      const answer = () => {
        res.writeHead(reply.status, { 'content-type': 'text/plain', ...reply.headers });
        res.end(reply.body ?? '');
      };
      if (reply.hold) this.held.push(answer);
      else answer();
      for (const w of [...this.waiters]) w();
    });
  }
}
