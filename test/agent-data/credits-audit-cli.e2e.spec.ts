import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CREDITS_SNAPSHOTS_COLLECTION, CreditLedger, type CreditsCommand } from '#agent-billing';
import { type Doc, SqliteDocumentStore } from '#documents';
import { SqliteEventStore } from '#eventstore';
import { svcInProcess as svc } from '../e2e/support/cli-in-process.js';

type Json = Record<string, any>;
const lines = (out: string): Json[] =>
  out
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Json);

const A = 'acct_audit_a';
const B = 'acct_audit_b';
const now = new Date('2026-03-01T10:00:00Z');
const charge = (accountId: string, cents: number, requestId: string, chargeKey?: string): CreditsCommand => ({
  type: 'ChargeMeter',
  accountId,
  meter: chargeKey ? 'deliver.workspace.webhook' : 'read.company_score',
  priceCents: cents,
  requestId,
  keyId: null,
  autopayThresholdCents: 0,
  newAutopayAttemptId: () => 'att_none',
  ...(chargeKey ? { chargeKey } : {}),
  now,
});
const settle = (accountId: string, chargeKey: string, refund: boolean): CreditsCommand => ({
  type: 'SettleCharge',
  accountId,
  chargeKey,
  refund,
  now,
});

/**
 * `svc audit credits` against a data directory the test writes through the
 * credits ledger itself (exact amounts, real snapshots), then tampers with.
 */
describe('svc audit credits (the CLI in process, on a data directory)', () => {
  let dir: string;
  let env: Record<string, string>;
  let sqlite: string;
  /** An instant after A's purchase and grant, before everything else. */
  let mid: Date;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-e2e-audit-credits-'));
    env = { SVC_DATA_DIR: join(dir, 'data') };
    sqlite = join(dir, 'data', 'svc.sqlite');
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const audit = (...args: string[]) => svc(['audit', 'credits', ...args], env);

  /** The two stores of the data directory, opened by this process while no CLI runs. */
  async function withStores<T>(
    fn: (events: SqliteEventStore, documents: SqliteDocumentStore) => Promise<T>,
  ): Promise<T> {
    const events = new SqliteEventStore({ path: sqlite });
    const documents = new SqliteDocumentStore({ path: sqlite });
    try {
      return await fn(events, documents);
    } finally {
      await events.close();
      await documents.close();
    }
  }

  it('an empty store: no lines, exit 0', async () => {
    // The first command on the directory: the CLI creates a store only when asked.
    const r = await audit('--create');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '');
  });

  it('purchases, grants, charges and refunds: exact figures per account, in the order accounts began; ok with the snapshots', async () => {
    await withStores(async (events, documents) => {
      // A snapshot every 3 events, as the service writes one every 1,000: A's last is at revision 5.
      const ledger = new CreditLedger(events, documents, { snapshotEvery: 3 });
      await ledger.execute(A, {
        type: 'PurchaseCredits',
        accountId: A,
        packId: 'pack_29',
        amountCents: 2900,
        creditsCents: 2900,
        paymentReference: 'cs_1',
        provider: 'sandbox',
        source: 'checkout',
        keyId: null,
        autopayAttemptId: null,
        now,
      });
      await ledger.execute(A, {
        type: 'GrantCredits',
        accountId: A,
        creditsCents: 25_000,
        reference: 'PO-1',
        keyId: 'key_1',
        grantedBy: 'operator',
        now,
      });
      // The store stamps events with its clock: everything after `mid` is recorded after it.
      mid = new Date();
      while (Date.now() <= mid.getTime()) await new Promise((resolve) => setImmediate(resolve));
      await ledger.execute(A, charge(A, 5, 'req_1'));
      await ledger.execute(A, charge(A, 5, 'req_2'));
      await ledger.execute(A, charge(A, 100, 'dlv_1', 'del_1:a1'));
      await ledger.execute(A, settle(A, 'del_1:a1', true));
      await ledger.execute(A, charge(A, 100, 'dlv_2', 'del_2:a1'));
      await ledger.execute(A, settle(A, 'del_2:a1', false));
      await ledger.execute(B, {
        type: 'GrantCredits',
        accountId: B,
        creditsCents: 1000,
        reference: 'PO-B',
        keyId: 'key_b',
        grantedBy: 'operator',
        now,
      });
      await ledger.flushSnapshots();
      const snapshot = await documents.collection<Doc & { revision: number }>(CREDITS_SNAPSHOTS_COLLECTION).get(A);
      assert.equal(snapshot?.revision, 5);
    });

    const r = await audit();
    assert.equal(r.code, 0, r.stderr);
    // Progress on stderr: the total first, the closing line last.
    assert.match(r.stderr, /^svc audit credits: replaying the credits streams found in \$all, \d+ events\n/);
    assert.match(r.stderr, /svc audit credits: done, 2 account\(s\) replayed, 0 disagree\n$/);
    const [a, b, ...rest] = lines(r.stdout);
    assert.equal(rest.length, 0);
    assert.ok(Number.isFinite(Date.parse(a!.as_of)));
    assert.deepEqual(
      { ...a, as_of: undefined },
      {
        account_id: A,
        // 29 + 250 − 0.05 − 0.05 − 1 + 1 (refunded) − 1 (kept)
        balance_usd: 277.9,
        purchased_usd: 29,
        granted_usd: 250,
        charged_usd: 2.1,
        refunded_usd: 1,
        charges: 4,
        revision: 7,
        as_of: undefined,
        read_model_balance_usd: 277.9,
        ok: true,
        mismatches: [],
      },
    );
    assert.deepEqual(
      [b!.account_id, b!.balance_usd, b!.granted_usd, b!.revision, b!.read_model_balance_usd, b!.ok],
      [B, 10, 10, 0, 10, true],
    );

    const one = await audit('--account', B);
    assert.equal(one.code, 0, one.stderr);
    assert.deepEqual(
      lines(one.stdout).map((l) => l.account_id),
      [B],
    );
    const unknown = await audit('--account', 'acct_nobody');
    assert.equal(unknown.code, 0);
    assert.equal(unknown.stdout, '');
    assert.match(unknown.stderr, /account acct_nobody has no credits events/);
  });

  it('--as-of: the figures at that instant; before the first event, no account existed yet (no lines)', async () => {
    const atMid = await audit('--as-of', mid.toISOString());
    assert.equal(atMid.code, 0, atMid.stderr);
    assert.deepEqual(
      lines(atMid.stdout).map((l) => [
        l.account_id,
        l.balance_usd,
        l.purchased_usd,
        l.granted_usd,
        l.charges,
        l.revision,
        l.as_of,
        l.read_model_balance_usd,
        l.ok,
      ]),
      // B's first event came later: B did not exist then. The service answers only for now: null.
      [[A, 279, 29, 250, 0, 1, mid.toISOString(), null, true]],
    );
    const before = await audit('--as-of', '2000-01-01T00:00:00Z');
    assert.equal(before.code, 0, before.stderr);
    assert.equal(before.stdout, '');
  });

  it('a tampered snapshot: exit 1, the account named on stdout (ok false) and stderr; the others stay ok', async () => {
    await withStores(async (_events, documents) => {
      const snapshots = documents.collection<Doc & { state: { balanceCents: number } }>(CREDITS_SNAPSHOTS_COLLECTION);
      const doc = (await snapshots.get(A))!;
      doc.state.balanceCents = 999_999;
      await snapshots.upsert(doc);
    });
    const r = await audit();
    assert.equal(r.code, 1, r.stderr);
    const [a, b] = lines(r.stdout);
    assert.equal(a!.account_id, A);
    assert.equal(a!.ok, false);
    assert.equal(a!.balance_usd, 277.9, 'the replay is the stream’s, whatever the snapshot says');
    // What the service would answer: the tampered snapshot plus the two events after it.
    assert.equal(a!.read_model_balance_usd, 9998.99);
    assert.deepEqual(a!.mismatches, [
      'snapshot at revision 5: balanceCents 999999 (replay 27890)',
      'service state: balanceCents 999899 (replay 27790)',
    ]);
    assert.equal(b!.ok, true);
    assert.match(r.stderr, new RegExp(`svc audit: account ${A}: snapshot at revision 5`));
    assert.doesNotMatch(r.stderr, new RegExp(B));
    assert.match(r.stderr, /svc audit credits: done, 2 account\(s\) replayed, 1 disagree\n$/, 'a closing line');

    // At an instant the snapshot's revision was recorded by, the snapshot is compared (not the service).
    const late = await audit('--as-of', new Date(Date.now() + 60_000).toISOString());
    assert.equal(late.code, 1);
    assert.deepEqual(lines(late.stdout)[0]!.mismatches, ['snapshot at revision 5: balanceCents 999999 (replay 27890)']);
    // Before it, the snapshot was not part of the read model yet.
    assert.equal((await audit('--as-of', mid.toISOString())).code, 0);
  });

  it('bad usage: the usage on stderr, exit 2', async () => {
    for (const args of [['--bogus'], ['--as-of', 'yesterday'], ['--account'], ['extra']]) {
      const r = await audit(...args);
      assert.equal(r.code, 2, args.join(' '));
      assert.match(r.stderr, /Usage: svc/);
      assert.equal(r.stdout, '');
    }
    const unknown = await svc(['audit', 'payments'], env);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown audit subcommand: payments/);
  });
});
