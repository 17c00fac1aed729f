import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CommandBus } from '@nestjs/cqrs';
import { CreditsService, GrantCreditsCommand } from '#agent-billing';
import { startTestApi, type TestApi } from '../api/support/test-api.js';
import { type Issued, pay, payInSandbox, status, withKey } from './support/agent-client.js';
import { PaidRoutesModule } from './support/paid-routes.module.js';

type Json = Record<string, any>;

/**
 * GET /api/v1/billing/ledger: the key's account's ledger, oldest first, paged
 * by an opaque cursor, each entry with its signed amount and the balance after it. Real HTTP,
 * the sandbox provider, real paid calls.
 */
describe('GET /api/v1/billing/ledger (real HTTP)', () => {
  let api: TestApi;
  let a: Issued;
  let b: Issued;

  before(async () => {
    api = await startTestApi({ imports: [PaidRoutesModule] });
    a = await pay(api.url);
    b = await pay(api.url);
  });
  after(async () => {
    await api?.close();
  });

  const ledger = async (key: string | null, query = '') => {
    const res = await fetch(`${api.url}/api/v1/billing/ledger${query}`, key ? withKey(key) : {});
    return { status: res.status, headers: res.headers, body: (await res.json()) as Json };
  };

  /** Every entry of an account, page by page; returns the pages' sizes too. */
  async function readAll(key: string, limit: number): Promise<{ entries: Json[]; sizes: number[]; cursor: string }> {
    const entries: Json[] = [];
    const sizes: number[] = [];
    let after = '';
    for (;;) {
      const page = await ledger(key, `?limit=${limit}${after ? `&after=${after}` : ''}`);
      assert.equal(page.status, 200, JSON.stringify(page.body));
      entries.push(...page.body.data.data);
      sizes.push(page.body.data.data.length);
      after = page.body.data.next_cursor;
      if (!page.body.data.has_more) return { entries, sizes, cursor: after };
    }
  }

  it('lists purchases, grants, charges and refunds oldest first, with signed amounts and the balance after each', async () => {
    const commands = api.app.get(CommandBus);
    const credits = api.app.get(CreditsService);
    assert.equal((await payInSandbox(a.starter_checkout.url)).status, 303);
    await commands.execute(new GrantCreditsCommand({ keyId: a.key.id, creditsCents: 50_00, reference: 'PO-7' }));
    const requestIds: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${api.url}/api/v1/test-paid/discovery`, withKey(a.key.api_key));
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('x-credits-charged'), '3.50');
      requestIds.push(res.headers.get('x-request-id')!);
    }
    // A keyed charge refunded (a failed webhook push), through the ledger as the engine does it.
    const now = new Date();
    await credits.execute(a.account_id, {
      type: 'ChargeMeter',
      accountId: a.account_id,
      meter: 'deliver.workspace.webhook',
      priceCents: 100,
      requestId: 'dlv-1',
      keyId: null,
      autopayThresholdCents: 0,
      newAutopayAttemptId: () => 'att_none',
      chargeKey: 'del_1:a1',
      now,
    });
    await credits.execute(a.account_id, {
      type: 'SettleCharge',
      accountId: a.account_id,
      chargeKey: 'del_1:a1',
      refund: true,
      reason: 'delivery_failed',
      now,
    });

    const { entries, sizes } = await readAll(a.key.api_key, 3);
    assert.deepEqual(sizes, [3, 3, 1]);
    assert.deepEqual(
      entries.map((e) => [e.sequence, e.type, e.amount_usd, e.balance_after_usd, e.meter, e.request_id]),
      [
        [0, 'CreditsPurchased', 29, 29, null, null],
        [1, 'CreditsGranted', 50, 79, null, null],
        [2, 'MeterCharged', -3.5, 75.5, 'read.discovery_top', requestIds[0]],
        [3, 'MeterCharged', -3.5, 72, 'read.discovery_top', requestIds[1]],
        [4, 'MeterCharged', -3.5, 68.5, 'read.discovery_top', requestIds[2]],
        [5, 'MeterCharged', -1, 67.5, 'deliver.workspace.webhook', 'dlv-1'],
        [6, 'MeterChargeSettled', 1, 68.5, 'deliver.workspace.webhook', null],
      ],
    );
    assert.equal(new Set(entries.map((e) => e.id)).size, entries.length, 'event ids, unique');
    for (const e of entries) {
      assert.match(e.id, /^[0-9a-f-]{36}$/);
      assert.ok(Number.isFinite(Date.parse(e.recorded_at)));
    }
    // The entries carry the fields of their kind too, as /agents/status shows them.
    assert.equal(entries[0]!.payment_reference, a.starter_checkout.session_id);
    assert.equal(entries[1]!.reference, 'PO-7');
    assert.equal(entries[6]!.kind, 'refund');
    assert.equal((await status(api.url, a.key.api_key)).balance_usd, entries.at(-1)!.balance_after_usd);

    // One page of everything, the default limit: the same entries.
    const whole = await ledger(a.key.api_key);
    assert.deepEqual(whole.body.data.data, entries);
    assert.equal(whole.body.data.has_more, false);
    assert.equal(whole.body.version, 'v1');
    assert.ok(Number.isFinite(Date.parse(whole.body.as_of)));
  });

  it('the last cursor polls for new entries only, with the balance carried on; reading is free', async () => {
    const { cursor, entries } = await readAll(a.key.api_key, 100);
    const empty = await ledger(a.key.api_key, `?after=${cursor}`);
    assert.deepEqual(empty.body.data, { data: [], next_cursor: cursor, has_more: false });
    assert.equal(empty.headers.get('x-credits-charged'), null, 'not metered');
    assert.equal((await status(api.url, a.key.api_key)).balance_usd, 68.5, 'reading the ledger cost nothing');

    const paid = await fetch(`${api.url}/api/v1/test-paid/discovery`, withKey(a.key.api_key));
    const next = await ledger(a.key.api_key, `?after=${cursor}`);
    assert.deepEqual(
      next.body.data.data.map((e: Json) => [e.sequence, e.amount_usd, e.balance_after_usd, e.request_id]),
      [[entries.length, -3.5, 65, paid.headers.get('x-request-id')]],
    );
  });

  it("records the server's request id for a charge, whatever x-request-id the client sent", async () => {
    const c = await pay(api.url);
    assert.equal((await payInSandbox(c.starter_checkout.url)).status, 303);
    // Another call's id, and a value no record should carry.
    const sent = ['req-ledger-1', `"><script>alert(1)</script>${'x'.repeat(4000)}`];
    const answered: string[] = [];
    for (const hostile of sent) {
      const res = await fetch(
        `${api.url}/api/v1/test-paid/discovery`,
        withKey(c.key.api_key, { headers: { 'x-request-id': hostile } }),
      );
      assert.equal(res.status, 200);
      answered.push(res.headers.get('x-request-id')!);
    }
    const charges = (await readAll(c.key.api_key, 100)).entries.filter((e) => e.type === 'MeterCharged');
    assert.deepEqual(
      charges.map((e) => e.request_id),
      answered,
    );
    for (const id of answered) assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it('another account sees only its own entries; a cursor of one account is refused for another (400)', async () => {
    await api.app
      .get(CommandBus)
      .execute(new GrantCreditsCommand({ keyId: b.key.id, creditsCents: 10_00, reference: 'PO-B' }));
    const mine = await readAll(b.key.api_key, 100);
    assert.deepEqual(
      mine.entries.map((e) => [e.type, e.amount_usd, e.balance_after_usd, e.reference]),
      [['CreditsGranted', 10, 10, 'PO-B']],
    );
    const theirs = await readAll(a.key.api_key, 100);
    const ids = new Set(theirs.entries.map((e) => e.id));
    assert.ok(!mine.entries.some((e) => ids.has(e.id)));

    const foreign = await ledger(b.key.api_key, `?after=${theirs.cursor}`);
    assert.equal(foreign.status, 400);
    assert.equal(foreign.body.code, 'VALIDATION_FAILED');
    assert.equal(foreign.body.details[0].path, 'query.after');

    // An account with no ledger yet: an empty page, not an error.
    const fresh = await pay(api.url);
    assert.deepEqual((await ledger(fresh.key.api_key)).body.data.data, []);
  });

  it('401 without a key or with a bad one; 400 for a bad limit or an unknown parameter', async () => {
    assert.equal((await ledger(null)).status, 401);
    assert.equal((await ledger('svc_test_notakeynotakeynotakeynotakeyn0t4k3')).status, 401);
    for (const query of ['?limit=0', '?limit=1001', '?limit=x', '?cursor=abc', '?after=not-a-cursor']) {
      const res = await ledger(a.key.api_key, query);
      assert.equal(res.status, 400, query);
      assert.equal(res.body.code, 'VALIDATION_FAILED', query);
    }
  });

  it('is linked from /agents/status (ledger_url) and documented in the OpenAPI document', async () => {
    const s = await status(api.url, a.key.api_key);
    assert.equal(s.ledger_url, `${api.url}/api/v1/billing/ledger`);
    const doc = (await (await fetch(`${api.url}/docs/api/openapi.v1.json`)).json()) as Json;
    const op = doc.paths['/api/v1/billing/ledger'].get;
    assert.equal(op.operationId, 'billingLedger');
    assert.deepEqual(op.parameters.map((p: Json) => p.name).sort(), ['after', 'limit']);
    assert.ok(op.responses['200'].content['application/json'].schema);
  });
});
