import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { paymentProviderFor, SandboxPaymentProvider, stripeClientConfig } from '#agent-billing';
import { FakeClock, IdGenerator, loadConfig } from '#kernel';
import type { DocumentStore } from '#documents';

describe('billing configuration (D16, D19)', () => {
  it('defaults: sandbox provider, autopay threshold 10 USD', async () => {
    const config = loadConfig({});
    assert.equal(config.stripeSecretKey, undefined);
    assert.equal(config.autopayThresholdCents, 1000);
    const provider = await paymentProviderFor(
      config,
      {} as DocumentStore,
      new IdGenerator(new FakeClock()),
      new FakeClock(),
    );
    assert.ok(provider instanceof SandboxPaymentProvider);
  });

  it('STRIPE_SECRET_KEY selects Stripe; STRIPE_API_URL points the SDK at another host', async () => {
    const config = loadConfig({
      STRIPE_SECRET_KEY: 'sk_test_abc',
      STRIPE_API_URL: 'http://127.0.0.1:12111/',
      SVC_AUTOPAY_THRESHOLD_USD: '25.5',
    });
    assert.equal(config.autopayThresholdCents, 2550);
    const provider = await paymentProviderFor(
      config,
      {} as DocumentStore,
      new IdGenerator(new FakeClock()),
      new FakeClock(),
    );
    // The Stripe adapter is loaded only here (not exported as a value: importing it loads the SDK).
    assert.equal(provider.name, 'stripe');
    assert.equal(provider.constructor.name, 'StripePaymentProvider');
    const sdk = stripeClientConfig({ secretKey: 'sk_test_abc', apiUrl: config.stripeApiUrl });
    assert.deepEqual([sdk?.protocol, sdk?.host, sdk?.port], ['http', '127.0.0.1', '12111']);
  });

  it('refuses to start with a setting that would mix test and live money, naming the variable', () => {
    assert.throws(() => loadConfig({ SVC_ENV: 'live' }), /STRIPE_SECRET_KEY=.*SVC_ENV=live needs a live Stripe key/);
    assert.throws(() => loadConfig({ SVC_ENV: 'live', STRIPE_SECRET_KEY: 'sk_test_abc' }), /STRIPE_SECRET_KEY/);
    assert.throws(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_live_abc' }), /STRIPE_SECRET_KEY.*SVC_ENV=live/);
    assert.equal(
      loadConfig({
        SVC_ENV: 'live',
        STRIPE_SECRET_KEY: 'sk_live_abc',
        STRIPE_WEBHOOK_SECRET: 'whsec_x',
        SVC_PUBLIC_URL: 'https://api.example.com',
      }).env,
      'live',
    );
    assert.throws(() => loadConfig({ STRIPE_SECRET_KEY: 'pk_test_abc' }), /STRIPE_SECRET_KEY/);
    assert.throws(() => loadConfig({ SVC_AUTOPAY_THRESHOLD_USD: '-1' }), /SVC_AUTOPAY_THRESHOLD_USD/);
    assert.throws(() => loadConfig({ STRIPE_API_URL: 'ftp://x' }), /STRIPE_API_URL/);
  });
});
