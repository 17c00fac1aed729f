import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApi, type TestApi } from '../api/support/test-api.js';

const RATE_LIMIT = 1234;
const THRESHOLD_USD = 25.5;

/** Every string leaf of a JSON value. */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) value.forEach((v) => strings(v, out));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => strings(v, out));
  return out;
}

// The documents state the deployment's limits, not the D7/D19 defaults (600 per minute, 10 USD).
describe('agent information documents with SVC_AGENT_RATE_LIMIT_PER_MINUTE and SVC_AUTOPAY_THRESHOLD_USD set', () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi({
      env: { SVC_AGENT_RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT), SVC_AUTOPAY_THRESHOLD_USD: String(THRESHOLD_USD) },
    });
  });
  after(async () => {
    await api?.close();
  });

  const get = async (path: string): Promise<Record<string, any>> => {
    const res = await fetch(`${api.url}/api/v1/agents/${path}`);
    assert.equal(res.status, 200, path);
    return ((await res.json()) as { data: Record<string, any> }).data;
  };

  /** No sentence of the document quotes a default instead of the configured value. */
  const quotesNoDefault = (path: string, data: unknown) => {
    for (const s of strings(data)) {
      assert.doesNotMatch(s, /\b600 requests\b|\b600\b.*per minute/, `${path}: ${s}`);
      assert.doesNotMatch(s, /under 10 USD/, `${path}: ${s}`);
    }
  };

  it('status states the configured rate limit', async () => {
    const status = await get('status');
    assert.deepEqual(status.rate_limit, { requests_per_minute_per_key: RATE_LIMIT });
    quotesNoDefault('status', status);
  });

  it('trust states the configured rate limit', async () => {
    const trust = await get('trust');
    assert.equal(trust.limits.requests_per_minute_per_key, RATE_LIMIT);
    quotesNoDefault('trust', trust);
  });

  it('traffic states the configured rate limit', async () => {
    const traffic = await get('traffic');
    assert.equal(traffic.rate_limits.requests_per_minute_per_key, RATE_LIMIT);
    quotesNoDefault('traffic', traffic);
  });

  it('recovery states the configured rate limit as the cause of 429', async () => {
    const recovery = await get('recovery');
    const tooMany = recovery.by_status.find((s: { status: number }) => s.status === 429);
    assert.match(tooMany.cause, new RegExp(`\\b${RATE_LIMIT} requests per minute\\b`));
    quotesNoDefault('recovery', recovery);
  });

  it('growth states the configured autopay threshold, in the autopay rule and in the tier ladder', async () => {
    const growth = await get('growth');
    assert.equal(growth.autopay.threshold_usd, THRESHOLD_USD);
    assert.match(growth.autopay.rule, new RegExp(`under ${THRESHOLD_USD} USD`));
    const continuous = growth.ladder.find((t: { key: string }) => t.key === 'builder_continuous');
    assert.ok(
      continuous.included.some((s: string) => s.includes(`under ${THRESHOLD_USD} USD`)),
      JSON.stringify(continuous.included),
    );
    quotesNoDefault('growth', growth);
  });

  it('the catalogue and the guidance quote the same threshold', async () => {
    const catalog = await get('catalog');
    const continuous = catalog.revenue_tiers.find((t: { key: string }) => t.key === 'builder_continuous');
    assert.ok(
      continuous.included.some((s: string) => s.includes(`under ${THRESHOLD_USD} USD`)),
      JSON.stringify(continuous.included),
    );
    quotesNoDefault('catalog', catalog);
    const quote = await get('quote?objective=growth');
    assert.ok(
      quote.why_buy_now.some((s: string) => s.includes(`under ${THRESHOLD_USD} USD`)),
      JSON.stringify(quote.why_buy_now),
    );
    quotesNoDefault('quote', quote);
  });
});
