import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CheckedFetch } from './support/checked-fetch.js';
import { type LiveProcess, startApiProcess } from './support/processes.js';

type Json = Record<string, any>;

interface Push {
  body: string;
  signature: string | undefined;
}

/**
 * Journey (b): an agent buys the enterprise pack through POST /agents/pay and the
 * sandbox checkout page, then does the whole workspace loop with the same key: companies, a memo
 * with If-Match, a deal, a follow-up, the event stream and a webhook subscription (a signed push
 * arrives). Every paid answer is charged its meter's served price, and the ledger agrees. Only
 * links and documents the service serves: the catalogue, the pay answer, the checkout page,
 * /agents/status and the capabilities document's operations.
 */
/** Every exchange with the api is checked against the OpenAPI document it serves (ADR 0079). */
let checked: CheckedFetch | undefined;
const fetch = (input: string | URL, init?: RequestInit): Promise<Response> =>
  checked ? checked.fetch(input, init) : globalThis.fetch(input, init);

describe('journey (b): buy pack_10000, then the whole workspace with the paying key (built api)', () => {
  let dataDir: string;
  let api: LiveProcess;
  let site: string;
  let receiver: Server;
  let receiverUrl: string;
  const pushes: Push[] = [];

  before(async () => {
    receiver = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (c: string) => (body += c));
      req.on('end', () => {
        pushes.push({ body, signature: req.headers['x-service-signature'] as string | undefined });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const address = receiver.address();
    receiverUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hooks`;
    dataDir = mkdtempSync(join(tmpdir(), 'svc-e2e-enterprise-'));
    ({ api, url: site } = await startApiProcess({
      SVC_DATA_DIR: dataDir,
      SVC_DEMO_DATA: 'false',
      SVC_BOOTSTRAP: 'false',
      // The receiver is on this machine (D14).
      SVC_WEBHOOK_ALLOW_PRIVATE: 'true',
    }));
    checked = new CheckedFetch(site);
  });
  after(async () => {
    await api?.stop('SIGTERM');
    await new Promise((resolve) => receiver?.close(resolve));
    rmSync(dataDir, { recursive: true, force: true });
    checked?.assertAgreed();
  });

  async function call(method: string, url: string, key?: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await fetch(url, {
      method,
      redirect: 'manual',
      headers: {
        accept: 'application/json',
        ...(key ? { 'x-api-key': key } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, json: (text ? JSON.parse(text) : null) as Json };
  }

  async function until<T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 20_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await check();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('pay → sandbox page → workspace loop with the same key, charged as the catalogue says', async () => {
    // 1. The catalogue: the enterprise tier's pack and the pay endpoint.
    const catalog = (await call('GET', `${site}/api/v1/agents/catalog`)).json.data;
    const tier = catalog.revenue_tiers.find((t: Json) => t.key === 'enterprise_workspace');
    const packId = new URL(tier.buy_now_url).searchParams.get('pack_id');
    assert.equal(packId, 'pack_10000');
    const pay = catalog.fastest_revenue_path.endpoint as string;
    const issued = await call('POST', pay, undefined, { objective: 'enterprise', pack_id: packId });
    assert.equal(issued.status, 201, issued.text);
    const key = issued.json.key.api_key as string;

    // 2. The hosted checkout page, paid like a person would; it redirects to the success page.
    const page = await (await fetch(issued.json.starter_checkout.url)).text();
    assert.match(page, /Agent Enterprise Commit 10000/);
    const action = /<form method="post" action="([^"]+)"/.exec(page)![1]!;
    const paid = await fetch(new URL(action.replace(/&amp;/g, '&'), issued.json.starter_checkout.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
      redirect: 'manual',
    });
    assert.equal(paid.status, 303);
    const success = await (await fetch(new URL(paid.headers.get('location')!, site))).text();
    assert.match(success, /id="workspace" data-tenant-id="tn_\w+" data-plan="enterprise"/, 'the success page says it');

    // 3. Status (the pay answer links it): the workspace is ready for this key.
    const statusUrl = issued.json.next_actions.find((a: Json) => a.action === 'check_status').url as string;
    const status = (await call('GET', statusUrl, key)).json.data;
    assert.equal(status.balance_usd, 12_500);
    assert.equal(status.workspace.plan, 'enterprise');
    assert.equal(status.workspace.access, 'read_write');
    const prices = new Map<string, number>(status.meters.map((m: Json) => [m.meter, m.price_usd]));
    const capabilities = (await call('GET', `${site}/api/v1/agents/capabilities`)).json.data;
    const operation = (method: string, path: string) =>
      capabilities.operations.find(
        (o: Json) => o.method === method && decodeURI(new URL(o.url).pathname) === `/api/v1${path}`,
      );

    let spent = 0;
    const paidCall = async (meter: string, method: string, url: string, body?: unknown, headers = {}) => {
      const res = await call(method, url, key, body, headers);
      assert.ok(res.status < 300, `${method} ${url}: ${res.status} ${res.text}`);
      assert.equal(Number(res.headers.get('x-credits-charged')), prices.get(meter), `${method} ${url} costs ${meter}`);
      spent += prices.get(meter)!;
      return res;
    };

    // 4. Companies: add one, list them.
    const companies = status.workspace.companies_url as string;
    const added = await paidCall('write.workspace.note', 'POST', companies, {
      name: 'Helio Grid',
      domain: 'helio-grid.example',
    });
    const companyId = added.json.data.id as string;
    await paidCall(operation('GET', '/workspace/companies').meter, 'GET', companies);

    // 5. The memo, with If-Match: a stale version is refused (412, not charged).
    const memoOp = operation('PATCH', '/workspace/companies/{id}/memo');
    const memoUrl = memoOp.url.replace('{id}', companyId);
    const memo = await paidCall(operation('GET', '/workspace/companies/{id}/memo').meter, 'GET', memoUrl);
    const etag = memo.headers.get('etag')!;
    await paidCall(memoOp.meter, 'PATCH', memoUrl, { body: '# Thesis' }, { 'if-match': etag });
    const stale = await call('PATCH', memoUrl, key, { body: 'lost update' }, { 'if-match': etag });
    assert.equal(stale.status, 412);
    assert.equal(stale.headers.get('x-credits-charged'), null);

    // 6. A deal (created on the deals list, moved with its PATCH operation).
    const dealsUrl = operation('GET', '/workspace/deals').url as string;
    const deal = await paidCall('write.workspace.note', 'POST', dealsUrl, { company_id: companyId, name: 'Seed' });
    const dealOp = operation('PATCH', '/workspace/deals/{id}');
    await paidCall(dealOp.meter, 'PATCH', dealOp.url.replace('{id}', deal.json.data.id), { stage: 'diligence' });

    // 7. The webhook subscription, then a follow-up: its push arrives signed.
    const subscriptions = operation('POST', '/workspace/webhooks/subscriptions');
    const secret = 'e2e-secret-of-at-least-32-bytes!!';
    await paidCall(subscriptions.meter, 'POST', subscriptions.url, {
      url: receiverUrl,
      events: ['workspace.followup.upserted'],
      secret,
    });
    // The spec's path: POST on the company's follow-ups creates one (the key makes it an upsert).
    const followUp = operation('POST', '/workspace/companies/{id}/follow-ups');
    await paidCall(followUp.meter, 'POST', followUp.url.replace('{id}', companyId), {
      key: 'call-founder',
      title: 'Call the founder',
      due_at: '2026-12-01T10:00:00Z',
    });
    const push = await until(async () => pushes[0], 'the signed push');
    assert.equal(push.signature, `sha256=${createHmac('sha256', secret).update(push.body).digest('hex')}`);
    assert.equal(JSON.parse(push.body).type, 'workspace.followup.upserted');

    // 8. The event stream has the loop, in order.
    const events = await paidCall('read.workspace.events', 'GET', operation('GET', '/workspace/events').url);
    assert.deepEqual(
      events.json.data.data.map((e: Json) => e.type),
      [
        'workspace.company.added',
        'workspace.memo.updated',
        'workspace.deal.created',
        'workspace.deal.stage_changed',
        'workspace.followup.upserted',
      ],
    );

    // 9. The ledger agrees: one purchase, the calls' charges and the delivered push.
    spent += prices.get('deliver.workspace.webhook')!;
    const ledger = await until(async () => {
      const l = (await call('GET', status.ledger_url, key)).json.data;
      const settled = l.data.some((e: Json) => e.type === 'MeterChargeSettled');
      return settled ? l : undefined;
    }, 'the push’s charge settled');
    const purchased = ledger.data.filter((e: Json) => e.type === 'CreditsPurchased');
    assert.deepEqual(
      purchased.map((e: Json) => e.amount_usd),
      [12_500],
    );
    const charged = -ledger.data.reduce((sum: number, e: Json) => sum + (e.amount_usd < 0 ? e.amount_usd : 0), 0);
    const refunded = ledger.data
      .filter((e: Json) => e.type !== 'CreditsPurchased')
      .reduce((sum: number, e: Json) => sum + (e.amount_usd > 0 ? e.amount_usd : 0), 0);
    assert.equal(Math.round((charged - refunded) * 100), Math.round(spent * 100));
    assert.equal(Math.round(ledger.data.at(-1).balance_after_usd * 100), Math.round((12_500 - spent) * 100));
  });
});
