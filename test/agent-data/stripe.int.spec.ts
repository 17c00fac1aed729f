import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Stripe from 'stripe';
import { findPack } from '#agent-contract';
import { openStripePaymentProvider, type StripePaymentProvider } from '#agent-billing';
import { startTestApi, type TestApi } from '../api/support/test-api.js';
import { EVENT_STORE, type RecordedEvent } from '#eventstore';
import { pay, status, withKey } from './support/agent-client.js';
import { StripeStandIn } from './support/stripe-stand-in.js';

const SECRET_KEY = 'sk_test_standin123';
const WEBHOOK_SECRET = 'whsec_test_secret';
const pack29 = findPack('pack_29')!;

describe('Stripe adapter: outgoing calls against a local stand-in', () => {
  const standIn = new StripeStandIn();
  let stripe: StripePaymentProvider;
  before(async () => {
    await standIn.start();
    stripe = await openStripePaymentProvider({ secretKey: SECRET_KEY, apiUrl: standIn.url, maxNetworkRetries: 0 });
  });
  after(async () => {
    await standIn.stop();
  });

  it('creates a Checkout Session in payment mode with account, key and pack metadata', async () => {
    const session = await stripe.createCheckoutSession({
      accountId: 'acct_1',
      keyId: 'key_1',
      pack: pack29,
      purpose: 'starter',
      objective: 'starter',
      source: 'test',
      email: 'agent@example.com',
      baseUrl: 'https://svc.example',
    });
    assert.match(session.id, /^cs_test_/);
    assert.equal(session.url, `https://checkout.stripe.test/c/pay/${session.id}`);
    const r = standIn.requests.at(-1)!;
    assert.equal(r.method, 'POST');
    assert.equal(r.path, '/v1/checkout/sessions');
    assert.equal(r.headers.authorization, `Bearer ${SECRET_KEY}`);
    assert.equal(r.form.mode, 'payment');
    assert.equal(r.form['line_items[0][quantity]'], '1');
    assert.equal(r.form['line_items[0][price_data][currency]'], 'usd');
    assert.equal(r.form['line_items[0][price_data][unit_amount]'], '2900');
    assert.equal(r.form['line_items[0][price_data][product_data][name]'], 'Agent Proof Pack 29');
    assert.equal(r.form['metadata[account_id]'], 'acct_1');
    assert.equal(r.form['metadata[key_id]'], 'key_1');
    assert.equal(r.form['metadata[pack_id]'], 'pack_29');
    assert.equal(r.form.client_reference_id, 'acct_1');
    assert.equal(r.form.customer_email, 'agent@example.com');
    assert.equal(
      r.form.success_url,
      'https://svc.example/api/v1/billing/checkout/success?session_id={CHECKOUT_SESSION_ID}',
    );
  });

  it('customer, off-session SetupIntent and attach', async () => {
    const { customerId } = await stripe.createCustomer({ accountId: 'acct_1', email: null });
    assert.match(customerId, /^cus_test_/);
    let r = standIn.requests.at(-1)!;
    assert.equal(r.path, '/v1/customers');
    assert.equal(r.form['metadata[account_id]'], 'acct_1');
    assert.equal(r.headers['idempotency-key'], 'customer-acct_1');

    const intent = await stripe.createSetupIntent({ accountId: 'acct_1', customerId });
    assert.match(intent.clientSecret, /_secret_/);
    r = standIn.requests.at(-1)!;
    assert.equal(r.path, '/v1/setup_intents');
    assert.equal(r.form.customer, customerId);
    assert.equal(r.form.usage, 'off_session');

    const method = await stripe.attachPaymentMethod({ customerId, paymentMethodId: 'pm_123' });
    assert.deepEqual(method, { id: 'pm_123', brand: 'visa', last4: '4242', expMonth: 12, expYear: 2034 });
    const [retrieve, attach] = standIn.requests.slice(-2);
    assert.equal(retrieve!.method, 'GET');
    assert.equal(retrieve!.path, '/v1/payment_methods/pm_123');
    assert.equal(attach!.path, '/v1/payment_methods/pm_123/attach');
    assert.equal(attach!.form.customer, customerId);
  });

  it('off-session PaymentIntent with an idempotency key; a card decline is an outcome, not a throw', async () => {
    const ok = await stripe.chargeOffSession({
      accountId: 'acct_1',
      customerId: 'cus_1',
      paymentMethodId: 'pm_1',
      pack: pack29,
      purpose: 'autopay',
      idempotencyKey: 'autopay-att_1',
    });
    assert.deepEqual(ok, {
      status: 'succeeded',
      paymentIntentId: ok.status === 'succeeded' ? ok.paymentIntentId : '',
      amountCents: 2900,
    });
    const r = standIn.requests.at(-1)!;
    assert.equal(r.path, '/v1/payment_intents');
    assert.equal(r.headers['idempotency-key'], 'autopay-att_1');
    assert.deepEqual(
      [
        r.form.amount,
        r.form.currency,
        r.form.customer,
        r.form.payment_method,
        r.form.off_session,
        r.form.confirm,
        r.form['metadata[purpose]'],
      ],
      ['2900', 'usd', 'cus_1', 'pm_1', 'true', 'true', 'autopay'],
    );

    standIn.on((req) =>
      req.path === '/v1/payment_intents' && req.form.payment_method === 'pm_declined'
        ? {
            status: 402,
            body: {
              error: {
                type: 'card_error',
                code: 'card_declined',
                decline_code: 'insufficient_funds',
                message: 'Your card has insufficient funds.',
                payment_intent: { id: 'pi_declined', object: 'payment_intent' },
              },
            },
          }
        : undefined,
    );
    const declined = await stripe.chargeOffSession({
      accountId: 'acct_1',
      customerId: 'cus_1',
      paymentMethodId: 'pm_declined',
      pack: pack29,
      purpose: 'topup',
      idempotencyKey: 'k2',
    });
    assert.deepEqual(declined, {
      status: 'failed',
      paymentIntentId: 'pi_declined',
      code: 'insufficient_funds',
      message: 'Your card has insufficient funds.',
    });
  });

  it('an unreachable Stripe is a 502 PAYMENT_PROVIDER_ERROR without the details', async () => {
    const down = await openStripePaymentProvider({
      secretKey: SECRET_KEY,
      apiUrl: 'http://127.0.0.1:9',
      maxNetworkRetries: 0,
      timeoutMs: 2000,
    });
    await assert.rejects(
      down.createCustomer({ accountId: 'acct_x', email: null }),
      (e: any) =>
        e.kind === 'upstream_failed' && e.code === 'PAYMENT_PROVIDER_ERROR' && !/127\.0\.0\.1/.test(e.message),
    );
  });
});

describe('Stripe webhook fulfilment (real HTTP, STRIPE_API_URL at the stand-in)', () => {
  const standIn = new StripeStandIn();
  let api: TestApi;
  before(async () => {
    await standIn.start();
    api = await startTestApi({
      env: {
        STRIPE_SECRET_KEY: SECRET_KEY,
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_URL: standIn.url,
        SVC_BOOTSTRAP: 'false',
      },
    });
  });
  after(async () => {
    await api?.close();
    await standIn.stop();
  });

  function completedEvent(
    sessionId: string,
    metadata: Record<string, string>,
    paymentStatus = 'paid',
    type = 'checkout.session.completed',
    amountTotal = 2900,
  ) {
    return JSON.stringify({
      id: `evt_${Math.random().toString(36).slice(2)}`,
      object: 'event',
      type,
      api_version: '2025-01-27.acacia',
      created: Math.floor(Date.now() / 1000),
      data: {
        object: {
          id: sessionId,
          object: 'checkout.session',
          mode: 'payment',
          payment_status: paymentStatus,
          status: 'complete',
          amount_total: amountTotal,
          currency: 'usd',
          metadata,
          client_reference_id: metadata.account_id || null,
        },
      },
    });
  }

  const deliver = (payload: string, signature: string) =>
    fetch(`${api.url}/api/v1/billing/webhooks/stripe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      body: payload,
    });

  it('pay opens a Stripe Checkout Session; its signed webhook credits once even when delivered three times', async () => {
    const issued = await pay(api.url);
    assert.match(issued.starter_checkout.url, /^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_/);
    const created = standIn.requests.find(
      (r) => r.path === '/v1/checkout/sessions' && r.form['metadata[key_id]'] === issued.key.id,
    )!;
    assert.equal(created.form['metadata[account_id]'], issued.account_id);

    const payload = completedEvent(issued.starter_checkout.session_id, {
      account_id: issued.account_id,
      key_id: issued.key.id,
      pack_id: 'pack_29',
      purpose: 'starter',
    });
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    const answers = [];
    for (let i = 0; i < 3; i++) {
      const res = await deliver(payload, signature);
      assert.equal(res.status, 200);
      answers.push(((await res.json()) as { credited: boolean }).credited);
    }
    assert.deepEqual(answers, [true, false, false]);
    const s = await status(api.url, issued.key.api_key);
    assert.equal(s.balance_usd, 29);
    assert.equal(s.recent_ledger.filter((e: { type: string }) => e.type === 'CreditsPurchased').length, 1);
    assert.equal(s.account.payment_provider, 'stripe');
  });

  it('pack_10000 opens one enterprise workspace for the paying key, however often and concurrently Stripe delivers the event', async () => {
    const issued = await pay(api.url, { objective: 'enterprise', pack_id: 'pack_10000' });
    const payload = completedEvent(
      issued.starter_checkout.session_id,
      { account_id: issued.account_id, key_id: issued.key.id, pack_id: 'pack_10000', purpose: 'starter' },
      'paid',
      'checkout.session.completed',
      1_000_000,
    );
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    const first = await Promise.all([deliver(payload, signature), deliver(payload, signature)]);
    const last = await deliver(payload, signature);
    for (const res of [...first, last]) assert.equal(res.status, 200, await res.clone().text());

    const s = await status(api.url, issued.key.api_key);
    assert.equal(s.balance_usd, 12_500);
    assert.equal(s.workspace.plan, 'enterprise');
    assert.equal(s.workspace.access, 'read_write');
    assert.match(s.workspace.tenant_id, /^tn_/);
    const companies = await fetch(`${api.url}/api/v1/workspace/companies`, withKey(issued.key.api_key));
    assert.equal(companies.status, 200, 'the paying key reaches the workspace at once');

    // Audited as events, once: one binding, one tenant, one activation naming the payment.
    const events: RecordedEvent[] = [];
    for await (const e of api.app.get(EVENT_STORE).readAll())
      if (JSON.stringify(e.data).includes(issued.account_id) || JSON.stringify(e.data).includes(s.workspace.tenant_id))
        events.push(e);
    const count = (type: string) => events.filter((e) => e.type === type).length;
    assert.deepEqual(
      [count('AgentAccountTenantBound'), count('WorkspaceTenantCreated'), count('WorkspaceEnterpriseActivated')],
      [1, 1, 1],
    );
    const activated = events.find((e) => e.type === 'WorkspaceEnterpriseActivated')!;
    assert.equal((activated.data as { reference: string }).reference, issued.starter_checkout.session_id);
  });

  it('a bad signature gets 400 and credits nothing; an unpaid completion waits for async_payment_succeeded', async () => {
    const issued = await pay(api.url);
    const meta = { account_id: issued.account_id, key_id: issued.key.id, pack_id: 'pack_29', purpose: 'starter' };
    const payload = completedEvent(issued.starter_checkout.session_id, meta);
    const forged = Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_wrong' });
    const bad = await deliver(payload, forged);
    assert.equal(bad.status, 400);
    assert.equal(((await bad.json()) as { code: string }).code, 'SIGNATURE_INVALID');
    // Signed, then altered in transit: the raw bytes no longer match.
    const good = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    const tampered = await deliver(payload.replace('"amount_total":2900', '"amount_total":2901'), good);
    assert.equal(tampered.status, 400);
    const unsigned = await fetch(`${api.url}/api/v1/billing/webhooks/stripe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: payload,
    });
    assert.equal(unsigned.status, 400);
    assert.equal((await status(api.url, issued.key.api_key)).balance_usd, 0);

    const unpaid = completedEvent(issued.starter_checkout.session_id, meta, 'unpaid');
    const r1 = await deliver(
      unpaid,
      Stripe.webhooks.generateTestHeaderString({ payload: unpaid, secret: WEBHOOK_SECRET }),
    );
    assert.equal(((await r1.json()) as { credited: boolean }).credited, false);
    assert.equal((await status(api.url, issued.key.api_key)).balance_usd, 0);
    const settled = completedEvent(
      issued.starter_checkout.session_id,
      meta,
      'paid',
      'checkout.session.async_payment_succeeded',
    );
    const r2 = await deliver(
      settled,
      Stripe.webhooks.generateTestHeaderString({ payload: settled, secret: WEBHOOK_SECRET }),
    );
    assert.equal(((await r2.json()) as { credited: boolean }).credited, true);
    assert.equal((await status(api.url, issued.key.api_key)).balance_usd, 29);
  });

  it('an unbound Stripe checkout (no key yet) opens one account however often it is delivered; the success page shows its key once', async () => {
    const link = await fetch(`${api.url}/api/v1/agents/checkout-link?pack_id=pack_29&source=catalog`, {
      headers: { accept: 'application/json' },
    });
    const { session_id: sessionId } = (await link.json()) as { session_id: string };
    const created = standIn.requests.find(
      (r) => r.path === '/v1/checkout/sessions' && r.form['metadata[source]'] === 'catalog',
    )!;
    assert.equal(created.form['metadata[account_id]'], '');
    assert.equal(created.form.client_reference_id, undefined);
    const payload = completedEvent(sessionId, {
      account_id: '',
      key_id: '',
      pack_id: 'pack_29',
      purpose: 'checkout_link',
      source: 'catalog',
    });
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    const deliveries = await Promise.all([deliver(payload, signature), deliver(payload, signature)]);
    const bodies = (await Promise.all(deliveries.map((d) => d.json()))) as Array<{
      credited: boolean;
      account_id: string;
    }>;
    assert.deepEqual(
      deliveries.map((d) => d.status),
      [200, 200],
    );
    assert.equal(bodies[0]!.account_id, bodies[1]!.account_id);
    assert.deepEqual(bodies.map((b) => b.credited).sort(), [false, true]);
    const success = (await (
      await fetch(`${api.url}/api/v1/billing/checkout/success?session_id=${sessionId}`, {
        headers: { accept: 'application/json' },
      })
    ).json()) as {
      key: { api_key: string };
      account_id: string;
    };
    assert.equal(success.account_id, bodies[0]!.account_id);
    const s = await status(api.url, success.key.api_key);
    assert.equal(s.balance_usd, 29);
  });

  it('acknowledges (and does not credit) a paid session that can never be credited, so Stripe stops resending it', async () => {
    const payload = completedEvent('cs_test_orphan', {
      account_id: 'acct_01JAAAAAAAAAAAAAAAAAAAAAAA',
      key_id: '',
      pack_id: 'pack_29',
      purpose: 'starter',
    });
    const res = await deliver(payload, Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }));
    assert.equal(res.status, 200);
    assert.deepEqual(
      (({ handled, credited, error }) => ({ handled, credited, error }))((await res.json()) as Record<string, unknown>),
      {
        handled: false,
        credited: false,
        error: 'ACCOUNT_NOT_FOUND',
      },
    );
  });

  it('other routes still parse JSON normally (the raw body is kept for the webhook only)', async () => {
    const res = await fetch(`${api.url}/api/v1/agents/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pack_id: 'pack_99' }),
    });
    assert.equal(res.status, 201);
    assert.equal(((await res.json()) as { starter_checkout: { pack_id: string } }).starter_checkout.pack_id, 'pack_99');
  });
});
