import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedStripeRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** Form-encoded body parsed into flat keys (`metadata[account_id]`). */
  form: Record<string, string>;
}

type Responder = (request: RecordedStripeRequest) => { status?: number; body: unknown } | undefined;

/**
 * A local stand-in for api.stripe.com (node:http on 127.0.0.1): records every request the SDK
 * sends and answers canned Stripe JSON. Point the adapter at it with STRIPE_API_URL.
 */
export class StripeStandIn {
  readonly requests: RecordedStripeRequest[] = [];
  private server: Server | null = null;
  private counter = 0;
  private readonly overrides: Responder[] = [];

  get url(): string {
    const address = this.server?.address() as AddressInfo;
    return `http://127.0.0.1:${address.port}`;
  }

  /** Answer matching requests differently (first responder returning a value wins). */
  on(responder: Responder): void {
    this.overrides.unshift(responder);
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const url = new URL(req.url ?? '/', 'http://x');
        const form = Object.fromEntries(new URLSearchParams(req.method === 'GET' ? url.search : text));
        const recorded: RecordedStripeRequest = {
          method: req.method ?? 'GET',
          path: url.pathname,
          headers: req.headers,
          form,
        };
        this.requests.push(recorded);
        let answer = this.overrides.map((r) => r(recorded)).find((a) => a !== undefined);
        answer ??= this.canned(recorded);
        res.writeHead(answer.status ?? 200, {
          'content-type': 'application/json',
          'request-id': `req_${++this.counter}`,
        });
        res.end(JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private canned(r: RecordedStripeRequest): { status?: number; body: unknown } {
    const n = ++this.counter;
    if (r.method === 'POST' && r.path === '/v1/checkout/sessions') {
      const id = `cs_test_${n}`;
      return {
        body: {
          id,
          object: 'checkout.session',
          url: `https://checkout.stripe.test/c/pay/${id}`,
          mode: 'payment',
          status: 'open',
          payment_status: 'unpaid',
          amount_total: Number(r.form['line_items[0][price_data][unit_amount]'] ?? 0),
          client_reference_id: r.form.client_reference_id ?? null,
          metadata: metadataOf(r.form),
          expires_at: 1_900_000_000,
        },
      };
    }
    if (r.method === 'POST' && r.path === '/v1/customers')
      return { body: { id: `cus_test_${n}`, object: 'customer', metadata: metadataOf(r.form) } };
    if (r.method === 'POST' && r.path === '/v1/setup_intents') {
      return {
        body: {
          id: `seti_test_${n}`,
          object: 'setup_intent',
          client_secret: `seti_test_${n}_secret_x`,
          status: 'requires_payment_method',
          customer: r.form.customer,
        },
      };
    }
    const pmRetrieve = /^\/v1\/payment_methods\/([^/]+)$/.exec(r.path);
    if (r.method === 'GET' && pmRetrieve) {
      return {
        body: {
          id: pmRetrieve[1],
          object: 'payment_method',
          customer: null,
          card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2034 },
        },
      };
    }
    const pmAttach = /^\/v1\/payment_methods\/([^/]+)\/attach$/.exec(r.path);
    if (r.method === 'POST' && pmAttach) {
      return {
        body: {
          id: pmAttach[1],
          object: 'payment_method',
          customer: r.form.customer,
          card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2034 },
        },
      };
    }
    if (r.method === 'POST' && r.path === '/v1/payment_intents') {
      const amount = Number(r.form.amount);
      return {
        body: {
          id: `pi_test_${n}`,
          object: 'payment_intent',
          amount,
          amount_received: amount,
          currency: 'usd',
          status: 'succeeded',
          metadata: metadataOf(r.form),
        },
      };
    }
    return {
      status: 404,
      body: {
        error: {
          type: 'invalid_request_error',
          code: 'resource_missing',
          message: `stand-in: no route ${r.method} ${r.path}`,
        },
      },
    };
  }
}

export function metadataOf(form: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(form)) {
    const m = /^metadata\[(.+)\]$/.exec(k);
    if (m) out[m[1]!] = v;
  }
  return out;
}
