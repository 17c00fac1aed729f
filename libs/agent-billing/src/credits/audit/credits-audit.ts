/**
 * `svc audit credits` (ADR 0064): replays the credits ledger from the event store and
 * compares it with every other place the service keeps a balance (its "read model"):
 *
 * - the ledger snapshot document (`credits_snapshots`, one per account): a state at a revision,
 *   which must equal the fold of the stream up to that revision;
 * - the state the service would answer now: what a fresh CreditLedger loads (that snapshot, then
 *   the events after it), i.e. the balance of GET /agents/status and of every 402.
 *
 * No projection keeps a balance today; one that did would be compared here too.
 *
 * The replay and the checks are pure functions (startReplay, replayEvent, readModelMismatches,
 * auditLine); auditCredits streams the store through them, one account at a time.
 */
import type { DocumentStore } from '#documents';
import type { EventStore, RecordedEvent } from '#eventstore';
import { centsToUsd } from '#kernel';
import {
  CREDITS_SNAPSHOTS_COLLECTION,
  CreditLedger,
  fromSnapshotState,
  SNAPSHOT_VERSION,
  type SnapshotDoc,
  toCreditsEvent,
} from '../credit-ledger.js';
import { creditsDecider } from '../credits.decider.js';
import type { CreditsState } from '../credits.state.js';
import { CREDITS_STREAM_PREFIX, creditsStream } from '../credits.events.js';

/** One line of `svc audit credits` (money in USD, as the API shows it). */
export interface CreditsAuditLine {
  account_id: string;
  balance_usd: number;
  purchased_usd: number;
  granted_usd: number;
  /** Every charge, refunded or not (as the ledger counts them). */
  charged_usd: number;
  refunded_usd: number;
  charges: number;
  /** Revision of the last event folded. */
  revision: number;
  /** The instant the figures are for: --as-of, or when the audit ran. */
  as_of: string;
  /** The balance the service answers now; null with --as-of (it answers only for now) or when it failed. */
  read_model_balance_usd: number | null;
  ok: boolean;
  /** What disagreed with the replay, one sentence each; empty when ok. */
  mismatches: string[];
}

/** One account's replay: the decider's fold of its events, in stream order. */
export interface CreditsReplay {
  accountId: string;
  /** Revision of the last event folded; null while none was. */
  revision: number | null;
  state: CreditsState;
  /** The state right after revision `keep` (see ReplayOptions), once folded. */
  kept: CreditsState | null;
}

export interface ReplayOptions {
  /** Fold only the events the store recorded at or before this instant (their `created`). */
  asOf?: Date;
  /** Keep the state right after this revision: a snapshot's, to compare it with. */
  keep?: number;
}

export function startReplay(accountId: string): CreditsReplay {
  return { accountId, revision: null, state: creditsDecider.initialState, kept: null };
}

export function replayEvent(replay: CreditsReplay, event: RecordedEvent, options: ReplayOptions = {}): CreditsReplay {
  if (options.asOf && Date.parse(event.created) > options.asOf.getTime()) return replay;
  const state = creditsDecider.evolve(replay.state, toCreditsEvent(event));
  return {
    ...replay,
    revision: event.revision,
    state,
    kept: event.revision === options.keep ? state : replay.kept,
  };
}

/**
 * The read model of one account, as stored (see the file comment). `service` is null when it is
 * not compared (--as-of: the service answers only for now), or the error its load threw.
 */
export interface CreditsReadModel {
  snapshot: SnapshotDoc | null;
  service: { state: CreditsState; revision: number | null } | { error: string } | null;
}

/**
 * Where the read model disagrees with the replay, one sentence each. `head` is the stream's last
 * revision now. A snapshot of an older version is not compared: the service ignores it and
 * refolds. A snapshot ahead of the stream is a disagreement (events it counted are missing),
 * even though the service ignores it too. With --as-of a snapshot is compared when its revision
 * was recorded by then (it was part of the read model at that instant); the service is not.
 */
export function readModelMismatches(replay: CreditsReplay, readModel: CreditsReadModel, head: number | null): string[] {
  const out: string[] = [];
  const snapshot = readModel.snapshot;
  if (snapshot && snapshot.version === SNAPSHOT_VERSION) {
    if (!Number.isInteger(snapshot.revision)) out.push('snapshot has no revision');
    else if (head === null || snapshot.revision > head) {
      out.push(`snapshot at revision ${snapshot.revision} is ahead of the stream (last revision ${String(head)})`);
    } else if (replay.kept) {
      let state: CreditsState | null = null;
      try {
        state = fromSnapshotState(snapshot.state);
      } catch {
        out.push(`snapshot at revision ${snapshot.revision} is unreadable`);
      }
      const diff = state ? diffCreditsState(state, replay.kept) : [];
      if (diff.length) out.push(`snapshot at revision ${snapshot.revision}: ${diff.join(', ')}`);
    }
  }
  const service = readModel.service;
  if (service && 'error' in service) out.push(`the service could not load the account: ${service.error}`);
  else if (service) {
    if (service.revision !== replay.revision)
      out.push(`service at revision ${String(service.revision)}, replay at ${String(replay.revision)}`);
    const diff = diffCreditsState(service.state, replay.state);
    if (diff.length) out.push(`service state: ${diff.join(', ')}`);
  }
  return out;
}

/**
 * The fields of two states that differ, as `field value (replay value)` for numbers and
 * `field differs` otherwise; sets and maps compare by content, not order. `b` is the replay.
 */
export function diffCreditsState(a: CreditsState, b: CreditsState): string[] {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort() as Array<keyof CreditsState>;
  const out: string[] = [];
  for (const key of keys) {
    const [x, y] = [a[key], b[key]];
    if (canonical(x) === canonical(y)) continue;
    out.push(
      typeof x === 'number' || typeof y === 'number' ? `${key} ${String(x)} (replay ${String(y)})` : `${key} differs`,
    );
  }
  return out;
}

/** JSON with sets and maps as sorted arrays and object keys sorted: equal content, equal text. */
function canonical(value: unknown): string {
  const norm = (v: unknown): unknown => {
    if (v instanceof Set) return [...v].map(norm).sort(byText);
    if (v instanceof Map) return [...v].map(([k, x]) => [k, norm(x)]).sort(byText);
    if (Array.isArray(v)) return v.map(norm);
    if (v && typeof v === 'object')
      return Object.fromEntries(
        Object.entries(v as Record<string, unknown>)
          .filter(([, x]) => x !== undefined)
          .sort(([k1], [k2]) => (k1 < k2 ? -1 : 1))
          .map(([k, x]) => [k, norm(x)]),
      );
    return v;
  };
  return JSON.stringify(norm(value)) ?? 'undefined';
}

const byText = (a: unknown, b: unknown) => {
  const [x, y] = [JSON.stringify(a), JSON.stringify(b)];
  return x < y ? -1 : x > y ? 1 : 0;
};

export function auditLine(
  replay: CreditsReplay & { revision: number },
  mismatches: string[],
  readModelBalanceCents: number | null,
  asOf: Date,
): CreditsAuditLine {
  const s = replay.state;
  return {
    account_id: replay.accountId,
    balance_usd: centsToUsd(s.balanceCents),
    purchased_usd: centsToUsd(s.purchasedCents),
    granted_usd: centsToUsd(s.grantedCents),
    charged_usd: centsToUsd(s.chargedCents),
    refunded_usd: centsToUsd(s.refundedCents),
    charges: s.charges,
    revision: replay.revision,
    as_of: asOf.toISOString(),
    read_model_balance_usd: readModelBalanceCents === null ? null : centsToUsd(readModelBalanceCents),
    ok: mismatches.length === 0,
    mismatches,
  };
}

export interface CreditsAuditOptions {
  /** Only this account. */
  accountId?: string;
  /** The balances at this instant (events recorded at or before it); without it, now. */
  asOf?: Date;
  now: Date;
}

/**
 * The accounts with a ledger, in the order of their first credits event: the events at revision 0
 * of `credits-*` streams, read from $all with a stream prefix filter. Streams; remembers nothing.
 */
export async function* creditsAccounts(events: Pick<EventStore, 'readAll'>): AsyncGenerator<string> {
  for await (const e of events.readAll({ filter: { streamPrefixes: [CREDITS_STREAM_PREFIX] } })) {
    if (e.revision === 0 && e.stream.startsWith(CREDITS_STREAM_PREFIX))
      yield e.stream.slice(CREDITS_STREAM_PREFIX.length);
  }
}

/**
 * One line per account with a credits event recorded by the instant audited (an account whose
 * first event came later did not exist then: no line). Memory holds one account at a time.
 */
export async function* auditCredits(
  stores: { events: EventStore; documents: DocumentStore },
  options: CreditsAuditOptions,
): AsyncGenerator<CreditsAuditLine> {
  // The service's view, loaded the way the server loads it, but with no listeners (nothing such
  // as autopay reacts to a load here) and one account cached at a time.
  const ledger = new CreditLedger(stores.events, stores.documents, { maxAccounts: 1 });
  const accounts = options.accountId !== undefined ? [options.accountId] : creditsAccounts(stores.events);
  for await (const accountId of accounts) {
    const line = await auditAccount(stores, ledger, accountId, options);
    if (line) yield line;
  }
}

async function auditAccount(
  stores: { events: EventStore; documents: DocumentStore },
  ledger: CreditLedger,
  accountId: string,
  options: CreditsAuditOptions,
): Promise<CreditsAuditLine | null> {
  const stream = creditsStream(accountId);
  const snapshot = await stores.documents.collection<SnapshotDoc>(CREDITS_SNAPSHOTS_COLLECTION).get(accountId);
  const replayOptions: ReplayOptions = {
    ...(options.asOf ? { asOf: options.asOf } : {}),
    ...(typeof snapshot?.revision === 'number' ? { keep: snapshot.revision } : {}),
  };
  let replay = startReplay(accountId);
  for await (const e of stores.events.readStream(stream)) replay = replayEvent(replay, e, replayOptions);

  let service: CreditsReadModel['service'] = null;
  if (!options.asOf) {
    try {
      const answer = await ledger.state(accountId, { fresh: true });
      ledger.forget(accountId);
      // Events appended since the replay read the stream (a running server): fold them too,
      // so both sides are compared at one revision.
      if (answer.revision !== null && (replay.revision === null || answer.revision > replay.revision)) {
        const from = replay.revision === null ? 0 : replay.revision + 1;
        for await (const e of stores.events.readStream(stream, { fromRevision: from })) {
          if (e.revision > answer.revision) break;
          replay = replayEvent(replay, e, replayOptions);
        }
      }
      service = { state: answer.state, revision: answer.revision };
    } catch (error) {
      ledger.forget(accountId);
      service = { error: error instanceof Error ? error.message : String(error) };
    }
  }
  if (replay.revision === null) return null;
  const head = await stores.events.streamRevision(stream);
  const mismatches = readModelMismatches(replay, { snapshot, service }, head);
  const readModelBalance = service && !('error' in service) ? service.state.balanceCents : null;
  return auditLine({ ...replay, revision: replay.revision }, mismatches, readModelBalance, options.asOf ?? options.now);
}
