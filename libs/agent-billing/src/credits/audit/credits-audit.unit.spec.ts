import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RecordedEvent } from '#eventstore';
import { SNAPSHOT_VERSION, type SnapshotDoc, toSnapshotState } from '../credit-ledger.js';
import { creditsDecider } from '../credits.decider.js';
import type { CreditsState } from '../credits.state.js';
import { type CreditsEvent, creditsStream } from '../credits.events.js';
import {
  auditLine,
  type CreditsReadModel,
  type CreditsReplay,
  diffCreditsState,
  readModelMismatches,
  replayEvent,
  type ReplayOptions,
  startReplay,
} from './credits-audit.js';

const acct = 'acct_1';
const t = (minute: number) => new Date(Date.UTC(2026, 2, 1, 10, minute)).toISOString();

const purchased = (cents: number, ref: string): CreditsEvent => ({
  type: 'CreditsPurchased',
  data: {
    account_id: acct,
    pack_id: 'pack_29',
    amount_cents: cents,
    credits_cents: cents,
    payment_reference: ref,
    provider: 'sandbox',
    source: 'checkout',
    key_id: 'key_1',
    autopay_attempt_id: null,
    purchased_at: t(0),
  },
});
const granted = (cents: number, reference: string): CreditsEvent => ({
  type: 'CreditsGranted',
  data: {
    account_id: acct,
    credits_cents: cents,
    reference,
    key_id: 'key_1',
    granted_by: 'operator',
    granted_at: t(0),
  },
});
const charged = (cents: number, requestId: string, chargeKey?: string): CreditsEvent => ({
  type: 'MeterCharged',
  data: {
    account_id: acct,
    meter: chargeKey ? 'deliver.workspace.webhook' : 'read.company_score',
    price_cents: cents,
    request_id: requestId,
    key_id: 'key_1',
    ...(chargeKey ? { charge_key: chargeKey } : {}),
    charged_at: t(0),
  },
});
const settled = (cents: number, chargeKey: string, refunded: boolean): CreditsEvent => ({
  type: 'MeterChargeSettled',
  data: {
    account_id: acct,
    charge_key: chargeKey,
    meter: 'deliver.workspace.webhook',
    price_cents: cents,
    refunded_cents: refunded ? cents : 0,
    reason: refunded ? 'delivery_failed' : null,
    settled_at: t(0),
  },
});

/** The history of the tests: 29 + 250 in, two reads, one push refunded, one kept. */
const HISTORY: CreditsEvent[] = [
  purchased(2900, 'cs_1'),
  granted(25_000, 'PO-1'),
  charged(5, 'req_1'),
  charged(5, 'req_2'),
  charged(100, 'dlv_1', 'del_1:a1'),
  settled(100, 'del_1:a1', true),
  charged(100, 'dlv_2', 'del_2:a1'),
  settled(100, 'del_2:a1', false),
];

/** Stored events, one a minute from 10:00. */
const recorded = (events: CreditsEvent[]): RecordedEvent[] =>
  events.map((e, i) => ({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    stream: creditsStream(acct),
    revision: i,
    position: i + 1,
    type: e.type,
    data: e.data,
    metadata: {},
    created: t(i),
  }));

/** given the account's events, when replayed (with options), then the replay. */
const given = (events: CreditsEvent[]) => ({
  whenReplayed: (options: ReplayOptions = {}): CreditsReplay =>
    recorded(events).reduce((replay, e) => replayEvent(replay, e, options), startReplay(acct)),
});

const foldOf = (events: CreditsEvent[]): CreditsState =>
  events.reduce((s, e) => creditsDecider.evolve(s, e), creditsDecider.initialState);

const snapshotOf = (state: CreditsState, revision: number, version = SNAPSHOT_VERSION): SnapshotDoc => ({
  id: acct,
  version,
  revision,
  state: toSnapshotState(state),
});

describe('credits audit: the replay', () => {
  it('folds purchases, grants, charges and refunds to exact totals', () => {
    const replay = given(HISTORY).whenReplayed();
    assert.equal(replay.revision, 7);
    const line = auditLine({ ...replay, revision: 7 }, [], replay.state.balanceCents, new Date(t(30)));
    assert.deepEqual(line, {
      account_id: acct,
      // 29 + 250 − 0.05 − 0.05 − 1 + 1 (refunded) − 1 (kept)
      balance_usd: 277.9,
      purchased_usd: 29,
      granted_usd: 250,
      charged_usd: 2.1,
      refunded_usd: 1,
      charges: 4,
      revision: 7,
      as_of: t(30),
      read_model_balance_usd: 277.9,
      ok: true,
      mismatches: [],
    });
  });

  it('with an instant, folds only the events recorded at or before it', () => {
    // Events are recorded at 10:00, 10:01, ...: by 10:02 the first three are.
    const replay = given(HISTORY).whenReplayed({ asOf: new Date(t(2)) });
    assert.equal(replay.revision, 2);
    assert.deepEqual(replay.state, foldOf(HISTORY.slice(0, 3)));
    assert.equal(replay.state.balanceCents, 2900 + 25_000 - 5);
  });

  it('before the first event, folds nothing: the account did not exist yet', () => {
    const replay = given(HISTORY).whenReplayed({ asOf: new Date(t(-1)) });
    assert.equal(replay.revision, null);
    assert.deepEqual(replay.state, creditsDecider.initialState);
  });

  it('keeps the state right after a given revision (the snapshot’s)', () => {
    const replay = given(HISTORY).whenReplayed({ keep: 4 });
    assert.deepEqual(replay.kept, foldOf(HISTORY.slice(0, 5)));
    assert.equal(replay.kept?.openCharges.size, 1, 'the keyed charge was still open at revision 4');
  });
});

describe('credits audit: the read model against the replay', () => {
  const replay = given(HISTORY).whenReplayed({ keep: 4 });
  const service = { state: foldOf(HISTORY), revision: 7 };

  it('agrees: a snapshot equal to the fold at its revision, the service equal to the whole fold', () => {
    const readModel: CreditsReadModel = { snapshot: snapshotOf(foldOf(HISTORY.slice(0, 5)), 4), service };
    assert.deepEqual(readModelMismatches(replay, readModel, 7), []);
    assert.deepEqual(readModelMismatches(replay, { snapshot: null, service }, 7), []);
  });

  it('a tampered snapshot: names the field, with both values', () => {
    const tampered = snapshotOf({ ...foldOf(HISTORY.slice(0, 5)), balanceCents: 999_900 }, 4);
    assert.deepEqual(readModelMismatches(replay, { snapshot: tampered, service }, 7), [
      'snapshot at revision 4: balanceCents 999900 (replay 27790)',
    ]);
  });

  it('a snapshot ahead of the stream is a disagreement (events it counted are missing)', () => {
    assert.deepEqual(readModelMismatches(replay, { snapshot: snapshotOf(foldOf(HISTORY), 12), service }, 7), [
      'snapshot at revision 12 is ahead of the stream (last revision 7)',
    ]);
  });

  it('a snapshot of an older version is not compared: the service ignores it and refolds', () => {
    const old = snapshotOf({ ...foldOf(HISTORY.slice(0, 5)), balanceCents: 1 }, 4, SNAPSHOT_VERSION - 1);
    assert.deepEqual(readModelMismatches(replay, { snapshot: old, service }, 7), []);
  });

  it('a snapshot whose revision the replay did not reach (recorded after --as-of) is not compared', () => {
    const early = given(HISTORY).whenReplayed({ asOf: new Date(t(2)), keep: 4 });
    const tampered = snapshotOf({ ...foldOf(HISTORY.slice(0, 5)), balanceCents: 1 }, 4);
    assert.deepEqual(readModelMismatches(early, { snapshot: tampered, service: null }, 7), []);
  });

  it('the service answering another balance, or failing to load, is a disagreement', () => {
    const wrong = { state: { ...foldOf(HISTORY), balanceCents: 100 }, revision: 7 };
    assert.deepEqual(readModelMismatches(replay, { snapshot: null, service: wrong }, 7), [
      'service state: balanceCents 100 (replay 27790)',
    ]);
    assert.deepEqual(readModelMismatches(replay, { snapshot: null, service: { error: 'boom' } }, 7), [
      'the service could not load the account: boom',
    ]);
  });

  it('a line with mismatches is not ok', () => {
    const line = auditLine({ ...replay, revision: 7 }, ['x'], null, new Date(t(30)));
    assert.equal(line.ok, false);
    assert.equal(line.read_model_balance_usd, null);
  });
});

describe('credits audit: diffCreditsState', () => {
  it('compares sets and maps by content, not order; names the fields that differ', () => {
    const a = foldOf(HISTORY);
    const b: CreditsState = { ...a, paymentRefs: new Set([...a.paymentRefs].reverse()) };
    assert.deepEqual(diffCreditsState(a, b), []);
    assert.deepEqual(diffCreditsState({ ...a, paymentRefs: new Set(['cs_1']), charges: 9 }, a), [
      'charges 9 (replay 4)',
      'paymentRefs differs',
    ]);
  });
});
