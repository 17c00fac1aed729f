import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fold } from '#kernel';
import { SqliteDocumentStore } from '#documents';
import { SqliteEventStore } from '#eventstore';
import { CREDITS_SNAPSHOTS_COLLECTION, CreditLedger, toCreditsEvent } from './credit-ledger.js';
import { InsufficientCreditsError } from './credits-charges.decider.js';
import { creditsDecider, type CreditsCommand } from './credits.decider.js';
import { creditsStream } from './credits.events.js';

const now = new Date('2026-03-01T10:00:00Z');
const purchase = (accountId: string, ref: string, credits: number): CreditsCommand => ({
  type: 'PurchaseCredits',
  accountId,
  packId: 'pack_29',
  amountCents: credits,
  creditsCents: credits,
  paymentReference: ref,
  provider: 'sandbox',
  source: 'checkout',
  keyId: null,
  autopayAttemptId: null,
  now,
});
const charge = (accountId: string, price: number, n: number): CreditsCommand => ({
  type: 'ChargeMeter',
  accountId,
  meter: 'read.discovery_top',
  priceCents: price,
  requestId: `req-${n}`,
  keyId: null,
  autopayThresholdCents: 1000,
  newAutopayAttemptId: () => `att_${n}`,
  now,
});

const keyedCharge = (accountId: string, chargeKey: string): CreditsCommand => ({
  type: 'ChargeMeter',
  accountId,
  meter: 'deliver.workspace.webhook',
  priceCents: 100,
  requestId: `dlv-${chargeKey}`,
  keyId: null,
  autopayThresholdCents: 1000,
  newAutopayAttemptId: () => 'att_k',
  chargeKey,
  now,
});
const settle = (accountId: string, chargeKey: string, refund: boolean): CreditsCommand => ({
  type: 'SettleCharge',
  accountId,
  chargeKey,
  refund,
  reason: refund ? 'http_503' : undefined,
  now,
});

describe('CreditLedger (hot-stream state over the embedded store)', () => {
  let dir: string;
  let events: SqliteEventStore;
  let documents: SqliteDocumentStore;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-ledger-'));
    events = new SqliteEventStore({ path: join(dir, 'svc.sqlite') });
    documents = new SqliteDocumentStore({ path: join(dir, 'svc.sqlite') });
  });
  after(async () => {
    await events.close();
    await documents.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function replay(accountId: string) {
    const all = [];
    for await (const e of events.readStream(creditsStream(accountId))) all.push(toCreditsEvent(e));
    return fold(creditsDecider, all);
  }

  it('two ledgers (two processes) racing on one account never overspend; a replay gives the same balance', async () => {
    const a = new CreditLedger(events, documents);
    const b = new CreditLedger(events, documents);
    await a.execute('acct_race', purchase('acct_race', 'cs_1', 4000));
    // b loads its (soon stale) state before a charges.
    assert.equal((await b.state('acct_race')).state.balanceCents, 4000);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 200 }, (_, i) => (i % 2 ? a : b).execute('acct_race', charge('acct_race', 100, i))),
    );
    const ok = outcomes.filter((o) => o.status === 'fulfilled');
    const refused = outcomes.filter((o) => o.status === 'rejected');
    assert.equal(ok.length, 40);
    assert.equal(refused.length, 160);
    for (const r of refused) assert.ok((r as PromiseRejectedResult).reason instanceof InsufficientCreditsError);
    const replayed = await replay('acct_race');
    assert.equal(replayed.balanceCents, 0);
    assert.equal(replayed.charges, 40);
    assert.equal((await a.state('acct_race', { fresh: true })).state.balanceCents, 0);
    assert.equal((await b.state('acct_race', { fresh: true })).state.balanceCents, 0);
  });

  it('two processes (two store connections) charging one account in a steady trickle: every charge lands, none runs out of retries', async () => {
    // Each store instance is its own connection to the file, as two API instances have. While
    // one keeps appending, the other's catch-up-then-append loses every race it runs at once
    // (hundreds in a row): retries used to run out and the paid call answered 409.
    const path = join(dir, 'svc.sqlite');
    const [storeA, storeB] = [new SqliteEventStore({ path }), new SqliteEventStore({ path })];
    try {
      const a = new CreditLedger(storeA, null);
      const b = new CreditLedger(storeB, null);
      await a.execute('acct_trickle', purchase('acct_trickle', 'cs_1', 600));
      assert.equal((await b.state('acct_trickle')).state.balanceCents, 600);
      const charges: Array<Promise<unknown>> = [];
      for (let i = 0; i < 600; i++) {
        charges.push((i % 2 ? a : b).execute('acct_trickle', charge('acct_trickle', 1, i)));
        // A few requests per event-loop turn, as HTTP requests arrive.
        if (i % 3 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
      const outcomes = await Promise.allSettled(charges);
      const failures = outcomes.flatMap((o) => (o.status === 'rejected' ? [String(o.reason)] : []));
      assert.deepEqual(failures.slice(0, 3), [], `${failures.length} charges failed`);
      const replayed = await replay('acct_trickle');
      assert.equal(replayed.balanceCents, 0);
      assert.equal(replayed.charges, 600);
    } finally {
      await storeA.close();
      await storeB.close();
    }
  });

  it('batches the commands of one account into few appends, each outcome its own', async () => {
    const ledger = new CreditLedger(events, documents);
    await ledger.execute('acct_batch', purchase('acct_batch', 'cs_1', 1000));
    const head = await events.headPosition();
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => ledger.execute('acct_batch', charge('acct_batch', 10, i))),
    );
    const balances = results.map((r) => r.state.balanceCents).sort((x, y) => y - x);
    assert.deepEqual(
      balances,
      Array.from({ length: 50 }, (_, i) => 1000 - 10 * (i + 1)),
    );
    const positions = new Set(results.map((r) => r.position));
    assert.ok(positions.size < 50, `expected batched appends, got ${positions.size} appends for 50 charges`);
    assert.equal((await events.headPosition()) - head, 50);
  });

  it('a repeated payment reference is a no-op (nothing appended)', async () => {
    const ledger = new CreditLedger(events, documents);
    const first = await ledger.execute('acct_ref', purchase('acct_ref', 'pi_1', 500));
    const again = await ledger.execute('acct_ref', purchase('acct_ref', 'pi_1', 500));
    assert.equal(first.events.length, 1);
    assert.deepEqual(again.events, []);
    assert.equal(again.position, null);
    assert.equal(again.state.balanceCents, 500);
  });

  it('holds: an exhausted account is refused before the work; a charge releases its hold as it lands', async () => {
    const ledger = new CreditLedger(events, documents);
    await ledger.execute('acct_hold', purchase('acct_hold', 'cs_1', 300));
    const h1 = await ledger.reserve('acct_hold', 200);
    assert.equal(h1.ok, true);
    const h2 = await ledger.reserve('acct_hold', 200);
    assert.equal(h2.ok, false, 'only 100 left net of the hold');
    await ledger.execute('acct_hold', charge('acct_hold', 200, 1), { hold: h1.ok ? h1.reservation : undefined });
    const { state, reservedCents } = await ledger.state('acct_hold');
    assert.equal(reservedCents, 0);
    assert.equal(state.balanceCents, 100);
    const h3 = await ledger.reserve('acct_hold', 100);
    assert.equal(h3.ok, true);
    if (h3.ok) h3.reservation.release();
  });

  it('a refusal catches up first: credits bought through another process are seen', async () => {
    const a = new CreditLedger(events, documents);
    const b = new CreditLedger(events, documents);
    assert.equal((await a.reserve('acct_late', 100)).ok, false);
    await b.execute('acct_late', purchase('acct_late', 'cs_1', 500));
    const hold = await a.reserve('acct_late', 100);
    assert.equal(hold.ok, true);
  });

  it('snapshots the folded state and loads from it; keeps at most maxAccounts in memory', async () => {
    const writer = new CreditLedger(events, documents, { snapshotEvery: 10 });
    await writer.execute('acct_snap', purchase('acct_snap', 'cs_1', 10_000));
    for (let i = 0; i < 25; i++) await writer.execute('acct_snap', charge('acct_snap', 7, i));
    await writer.flushSnapshots();
    const snap = await documents.collection(CREDITS_SNAPSHOTS_COLLECTION).get('acct_snap');
    assert.ok(snap && (snap.revision as number) >= 10, 'a snapshot was written');
    const reader = new CreditLedger(events, documents, { snapshotEvery: 10 });
    const loaded = await reader.state('acct_snap');
    const replayed = await replay('acct_snap');
    assert.equal(loaded.state.balanceCents, replayed.balanceCents);
    assert.equal(loaded.state.balanceCents, 10_000 - 25 * 7);
    assert.deepEqual([...loaded.state.paymentRefs], ['cs_1']);
    assert.equal(loaded.revision, 25);

    // A snapshot of an older shape (version 2: no open charges) is ignored: the state is refolded.
    const snapshots = documents.collection(CREDITS_SNAPSHOTS_COLLECTION);
    await snapshots.upsert({ ...snap, version: 2, state: { ...(snap.state as object), balanceCents: -1 } });
    const refolded = await new CreditLedger(events, documents, { snapshotEvery: 10 }).state('acct_snap');
    assert.equal(refolded.state.balanceCents, 10_000 - 25 * 7);
    assert.equal(refolded.state.openCharges.size, 0);

    const small = new CreditLedger(events, documents, { maxAccounts: 3 });
    for (const id of ['acct_l1', 'acct_l2', 'acct_l3', 'acct_l4', 'acct_l5']) await small.state(id);
    assert.equal(small.cachedAccounts, 3);
  });

  it('a keyed charge survives a restart (from the stream or a snapshot): still charged once, then settled', async () => {
    const key = 'dlv_1:a1';
    const before = new CreditLedger(events, documents, { snapshotEvery: 2 });
    await before.execute('acct_key', purchase('acct_key', 'cs_1', 1000));
    const first = await before.execute('acct_key', keyedCharge('acct_key', key));
    assert.equal(first.events.length, 1);
    await before.flushSnapshots();
    const snap = await documents.collection(CREDITS_SNAPSHOTS_COLLECTION).get('acct_key');
    assert.equal(snap?.revision, 1, 'the snapshot holds the open charge');

    // "Restarts": one process loads from the snapshot, one from the stream alone.
    for (const after of [
      new CreditLedger(events, documents, { snapshotEvery: 2 }),
      new CreditLedger(events, null, { snapshotEvery: 0 }),
    ]) {
      const loaded = (await after.state('acct_key')).state;
      assert.deepEqual([...loaded.openCharges], [[key, { meter: 'deliver.workspace.webhook', priceCents: 100 }]]);
      const again = await after.execute('acct_key', keyedCharge('acct_key', key));
      assert.deepEqual(again.events, []);
      assert.equal(again.position, null);
      assert.equal(again.state.balanceCents, 900);
    }

    const settler = new CreditLedger(events, documents);
    const refunded = await settler.execute('acct_key', settle('acct_key', key, true));
    assert.deepEqual(
      refunded.events.map((e) => e.type),
      ['MeterChargeSettled'],
    );
    assert.equal(refunded.state.balanceCents, 1000);
    assert.equal(refunded.state.refundedCents, 100);
    assert.deepEqual((await settler.execute('acct_key', settle('acct_key', key, true))).events, []);
    const replayed = await replay('acct_key');
    assert.equal(replayed.balanceCents, 1000);
    assert.equal(replayed.charges, 1);
    assert.equal(replayed.openCharges.size, 0);
  });
});
